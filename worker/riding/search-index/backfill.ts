import type { Document, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { readEach, readId } from '../../platform/db/stored-values';
import type { Env } from '../../platform/env';
import { type IndexedDocument, indexDocuments, type Retrievable } from '../../platform/retrieval/vector-search';
import { readBlogPost } from '../blog/reader';
import { readSpot } from '../spots/reader';
import { readTrickipediaEntry } from '../trickipedia/reader';
import { blogDocument, spotDocument, trickDocument } from './documents';

// The backfill: indexes what was stored before the vector store was bound, one page per call.

const PAGE = 100;

/** A page of one kind after `after`, read (an unreadable document is left out), and the last id fetched. */
async function page(
  store: Store,
  kind: Retrievable,
  after: ObjectId | undefined,
): Promise<{ docs: IndexedDocument[]; fetched: number; last: unknown }> {
  const filter = after ? { _id: { $gt: after } } : {};
  const options = { sort: { _id: 1 } as const, limit: PAGE };
  const read = (
    collection: string,
    rows: { _id: unknown }[],
    document: (row: unknown) => IndexedDocument | undefined,
  ) => ({ docs: readEach(collection, rows, document), fetched: rows.length, last: rows[rows.length - 1]?._id });
  if (kind === 'trick') {
    const rows = await store.trickipedia.find(filter, options).toArray();
    return read('trickipedia', rows, (row) => {
      const entry = readTrickipediaEntry(row);
      return entry && trickDocument(entry);
    });
  }
  if (kind === 'spot') {
    const rows = await store.spots.find(filter, options).toArray();
    return read('spots', rows, (row) => {
      const spot = readSpot(row);
      return spot && spotDocument(spot);
    });
  }
  // Drafts are hidden from the public, so they are never searchable; posts stored without a status are published.
  const rows = await store.blog
    .find({ ...filter, status: { $in: ['published', null] } } as Document, options)
    .toArray();
  return read('blog', rows, (row) => {
    const post = readBlogPost(row);
    return post && blogDocument(post);
  });
}

/** Indexes the next page of one kind after `after`; the last id fetched is where the next call goes on. */
export async function backfillPage(store: Store, env: Env, kind: Retrievable, after: ObjectId | undefined) {
  const { docs, fetched, last } = await page(store, kind, after);
  await indexDocuments(env, kind, docs);
  return { indexed: docs.length, last: fetched === PAGE ? (readId(last) ?? null) : null };
}
