import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { type IndexedDocument, indexDocuments, type Retrievable } from '../../platform/retrieval/vector-search';
import { blogDocument, spotDocument, trickDocument } from './documents';

// The backfill: indexes what was stored before the vector store was bound, one page per call.

const PAGE = 100;

async function page(store: Store, kind: Retrievable, after: ObjectId | undefined): Promise<IndexedDocument[]> {
  const filter = after ? { _id: { $gt: after } } : {};
  const options = { sort: { _id: 1 } as const, limit: PAGE };
  if (kind === 'trick') return (await store.trickipedia.find(filter, options).toArray()).map(trickDocument);
  if (kind === 'spot') return (await store.spots.find(filter, options).toArray()).map(spotDocument);
  // Drafts are hidden from the public, so they are never searchable.
  return (await store.blog.find({ ...filter, status: 'published' }, options).toArray()).map(blogDocument);
}

/** Indexes the next page of one kind after `after`; the last id indexed is where the next call goes on. */
export async function backfillPage(store: Store, env: Env, kind: Retrievable, after: ObjectId | undefined) {
  const docs = await page(store, kind, after);
  await indexDocuments(env, kind, docs);
  return { indexed: docs.length, last: docs.length === PAGE ? docs[docs.length - 1]!.id : null };
}
