import { type Filter, ObjectId } from 'mongodb';
import { containsPattern } from '../../platform/db/contains-pattern';
import { isDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { holdCategory, releaseCategory } from '../categories/service';
import type { TrickipediaDoc } from '../documents';
import type { EntryFields } from './schema';

// Every query on trickipedia entries. Each entry holds a count on its category
// (worker/riding/categories/service.ts), taken before the entry is written and given back after it is gone.

type WriteRefusal = 'unknown-category' | 'slug-taken';

export const findEntry = (store: Store, id: ObjectId) => store.trickipedia.findOne({ _id: id });

/** Whether the encyclopedia has this entry (trick lists and trick history may reference one). */
export async function entryExists(store: Store, id: ObjectId): Promise<boolean> {
  return (await store.trickipedia.countDocuments({ _id: id }, { limit: 1 })) > 0;
}

export async function insertEntry(store: Store, fields: EntryFields): Promise<TrickipediaDoc | WriteRefusal> {
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
  return entry;
}

const OPTIONAL_FIELDS = ['difficulty', 'videoUrl'] as const;

/** Replaces every mutable field; `_id` and `createdAt` stay. The new category is held before the old one is let go. */
export async function replaceEntry(
  store: Store,
  id: ObjectId,
  fields: EntryFields,
): Promise<TrickipediaDoc | 'not-found' | WriteRefusal> {
  if (!(await holdCategory(store, fields.category))) return 'unknown-category';
  const updatedAt = new Date();
  const $unset: Partial<Record<(typeof OPTIONAL_FIELDS)[number], ''>> = {};
  for (const field of OPTIONAL_FIELDS) if (!(field in fields)) $unset[field] = '';
  let before: TrickipediaDoc | null;
  try {
    before = await store.trickipedia.findOneAndUpdate(
      { _id: id },
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
  await releaseCategory(store, before.category);
  return { _id: id, ...fields, createdAt: before.createdAt, updatedAt };
}

export async function deleteEntry(store: Store, id: ObjectId): Promise<'deleted' | 'not-found'> {
  const deleted = await store.trickipedia.findOneAndDelete({ _id: id });
  if (!deleted) return 'not-found';
  await releaseCategory(store, deleted.category);
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
