import { type Document, type Filter, ObjectId } from 'mongodb';
import { isDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { storedNumber } from '../../platform/db/stored-expressions';
import { idForms, readCount, readOne } from '../../platform/db/stored-values';
import type { CategoryDoc } from '../documents';
import { type Category, readCategory } from './reader';

// Every query on categories, including the reference count trickipedia entries hold on them.

export type NewCategoryFields = Pick<CategoryDoc, 'name' | 'slug'> & { sport?: string };
export type CategoryChanges = { name?: string; slug?: string; sport?: string | null };
/** A delete or slug change refused because trickipedia entries reference the category, and how many. */
export type Referenced<Refused extends 'referenced' | 'slug-referenced'> = { outcome: Refused; referencedBy: number };

// Older code stored some counts as text: every condition and change on `entryCount` reads it as a number first.
const entryCount = storedNumber('$entryCount');

/** No entry counts against it (a category stored before the counter existed has none). */
const UNREFERENCED: Document = { $expr: { $lte: [entryCount, 0] } };

/** The category of this id, stored as an ObjectId or as its hex string by older code. */
const byId = (id: ObjectId): Document => ({ _id: { $in: idForms(id) } });

const readStored = (doc: CategoryDoc | null) => readOne('categories', doc, readCategory) ?? null;

export async function insertCategory(store: Store, fields: NewCategoryFields): Promise<Category | 'slug-taken'> {
  const now = new Date();
  const category: CategoryDoc = { _id: new ObjectId(), ...fields, entryCount: 0, createdAt: now, updatedAt: now };
  try {
    await store.categories.insertOne(category);
  } catch (err) {
    if (isDuplicateKey(err)) return 'slug-taken';
    throw err;
  }
  return readCategory(category)!;
}

/** Categories in slug order after `cursor`, `limit + 1` rows for the pager. */
export function listCategories(
  store: Store,
  query: { sport?: string; cursor?: string; limit: number },
): Promise<CategoryDoc[]> {
  const filter: Filter<CategoryDoc> = {};
  if (query.sport) filter.sport = query.sport;
  if (query.cursor !== undefined) filter.slug = { $gt: query.cursor };
  return store.categories
    .find(filter)
    .sort({ slug: 1 })
    .limit(query.limit + 1)
    .toArray();
}

/**
 * Merges the changes. A new slug is refused while entries reference the old one, decided in the
 * same atomic update as the change, so no entry can take a hold on the old slug in between.
 */
export async function updateCategory(
  store: Store,
  id: ObjectId,
  changes: CategoryChanges,
): Promise<Category | 'not-found' | 'slug-taken' | Referenced<'slug-referenced'>> {
  const $set: Partial<CategoryDoc> = { updatedAt: new Date() };
  if (changes.name !== undefined) $set.name = changes.name;
  if (changes.slug !== undefined) $set.slug = changes.slug;
  if (typeof changes.sport === 'string') $set.sport = changes.sport;
  const filter: Document =
    changes.slug === undefined ? byId(id) : { ...byId(id), $or: [{ slug: changes.slug }, UNREFERENCED] };
  try {
    const updated = await store.categories.findOneAndUpdate(
      filter,
      changes.sport === null ? { $set, $unset: { sport: '' } } : { $set },
      { returnDocument: 'after' },
    );
    const category = readStored(updated);
    if (category) return category;
  } catch (err) {
    if (isDuplicateKey(err)) return 'slug-taken';
    throw err;
  }
  return (await referencedBy(store, id, 'slug-referenced')) ?? 'not-found';
}

/** Deletes the category only if no entry counts against it, in one atomic delete. */
export async function deleteCategory(
  store: Store,
  id: ObjectId,
): Promise<'deleted' | 'not-found' | Referenced<'referenced'>> {
  if (await store.categories.findOneAndDelete({ ...byId(id), ...UNREFERENCED })) return 'deleted';
  return (await referencedBy(store, id, 'referenced')) ?? 'not-found';
}

async function referencedBy<Refused extends 'referenced' | 'slug-referenced'>(
  store: Store,
  id: ObjectId,
  outcome: Refused,
): Promise<Referenced<Refused> | undefined> {
  const category = await store.categories.findOne(byId(id), { projection: { entryCount: 1 } });
  return category ? { outcome, referencedBy: readCount(category.entryCount) ?? 0 } : undefined;
}

/**
 * Counts one more entry against the category, before the entry is written: from then on the
 * category cannot be deleted or re-slugged, so the entry never points at nothing. False when
 * there is no category with this slug.
 */
export async function holdCategory(store: Store, slug: string): Promise<boolean> {
  const result = await store.categories.updateOne({ slug }, [{ $set: { entryCount: { $add: [entryCount, 1] } } }]);
  return result.matchedCount === 1;
}

/** Gives back a hold: the entry was deleted, moved to another category, or never written. */
export async function releaseCategory(store: Store, slug: string): Promise<void> {
  await store.categories.updateOne({ slug, $expr: { $gt: [entryCount, 0] } }, [
    { $set: { entryCount: { $subtract: [entryCount, 1] } } },
  ]);
}
