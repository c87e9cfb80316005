import { type Document, type Filter, ObjectId } from 'mongodb';
import { containsPattern } from '../../platform/db/contains-pattern';
import { isDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { createdAtOf, idForms, readOne, readString } from '../../platform/db/stored-values';
import { holdCategory, releaseCategory } from '../categories/service';
import type { TrickipediaDoc } from '../documents';
import { readTrickipediaEntry, type TrickipediaEntry } from './reader';
import type { EntryFields } from './schema';

// Every query on trickipedia entries. Each entry holds a count on its category
// (worker/riding/categories/service.ts), taken before the entry is written and given back after it is gone.

type WriteRefusal = 'unknown-category' | 'slug-taken';

/** The entry of this id, stored as an ObjectId or as its hex string by older code. */
const byId = (id: ObjectId): Document => ({ _id: { $in: idForms(id) } });

export const findEntry = async (store: Store, id: ObjectId) =>
  readOne('trickipedia', await store.trickipedia.findOne(byId(id)), readTrickipediaEntry);

/** Whether the encyclopedia has this entry (trick lists and trick history may reference one). */
export async function entryExists(store: Store, id: ObjectId): Promise<boolean> {
  return (await store.trickipedia.countDocuments(byId(id), { limit: 1 })) > 0;
}

/** Gives back the hold a stored entry had on its category, if it names one. */
async function releaseCategoryOf(store: Store, entry: TrickipediaDoc): Promise<void> {
  const category = readString(entry.category);
  if (category) await releaseCategory(store, category);
}

export async function insertEntry(store: Store, fields: EntryFields): Promise<TrickipediaEntry | WriteRefusal> {
  if (!(await holdCategory(store, fields.category))) return 'unknown-category';
  const now = new Date();
  const entry: TrickipediaDoc = { _id: new ObjectId(), ...fields, createdAt: now, updatedAt: now };
  try {
    await store.trickipedia.insertOne(entry);
  } catch (err) {
    await releaseCategory(store, fields.category);
    if (isDuplicateKey(err)) return 'slug-taken';
    throw err;
  }
  return readTrickipediaEntry(entry)!;
}

const OPTIONAL_FIELDS = ['difficulty', 'videoUrl'] as const;

/** Replaces every mutable field; `_id` and `createdAt` stay. The new category is held before the old one is let go. */
export async function replaceEntry(
  store: Store,
  id: ObjectId,
  fields: EntryFields,
): Promise<TrickipediaEntry | 'not-found' | WriteRefusal> {
  if (!(await holdCategory(store, fields.category))) return 'unknown-category';
  const updatedAt = new Date();
  const $unset: Partial<Record<(typeof OPTIONAL_FIELDS)[number], ''>> = {};
  for (const field of OPTIONAL_FIELDS) if (!(field in fields)) $unset[field] = '';
  let before: TrickipediaDoc | null;
  try {
    before = await store.trickipedia.findOneAndUpdate(
      byId(id),
      { $set: { ...fields, updatedAt }, ...(Object.keys($unset).length ? { $unset } : {}) },
      { returnDocument: 'before' },
    );
  } catch (err) {
    await releaseCategory(store, fields.category);
    if (isDuplicateKey(err)) return 'slug-taken';
    throw err;
  }
  if (!before) {
    await releaseCategory(store, fields.category);
    return 'not-found';
  }
  await releaseCategoryOf(store, before);
  return readTrickipediaEntry({ _id: id, ...fields, createdAt: createdAtOf(before), updatedAt })!;
}

export async function deleteEntry(store: Store, id: ObjectId): Promise<'deleted' | 'not-found'> {
  const deleted = await store.trickipedia.findOneAndDelete(byId(id));
  if (!deleted) return 'not-found';
  await releaseCategoryOf(store, deleted);
  return 'deleted';
}

/** Entries in slug order after `cursor`, filtered, `limit + 1` rows for the pager. */
export function searchEntries(
  store: Store,
  query: { q?: string; sport?: string; category?: string; cursor?: string; limit: number },
): Promise<TrickipediaDoc[]> {
  const filter: Filter<TrickipediaDoc> = {};
  if (query.q) {
    const pattern = containsPattern(query.q);
    filter.$or = [{ name: pattern }, { aliases: pattern }];
  }
  if (query.sport) filter.sport = query.sport;
  if (query.category) filter.category = query.category;
  if (query.cursor !== undefined) filter.slug = { $gt: query.cursor };
  return store.trickipedia
    .find(filter)
    .sort({ slug: 1 })
    .limit(query.limit + 1)
    .toArray();
}
