import { type Filter, ObjectId } from 'mongodb';
import { isDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import type { CategoryDoc } from '../documents';

// Every query on categories, including the reference count trickipedia entries hold on them.

export type NewCategoryFields = Pick<CategoryDoc, 'name' | 'slug'> & { sport?: string };
export type CategoryChanges = { name?: string; slug?: string; sport?: string | null };
/** A delete or slug change refused because trickipedia entries reference the category, and how many. */
export type Referenced<Refused extends 'referenced' | 'slug-referenced'> = { outcome: Refused; referencedBy: number };

/** No entry counts against it (a category stored before the counter existed has none). */
const UNREFERENCED: Filter<CategoryDoc> = { entryCount: { $not: { $gt: 0 } } };

export async function insertCategory(store: Store, fields: NewCategoryFields): Promise<CategoryDoc | 'slug-taken'> {
  const now = new Date();
  const category: CategoryDoc = { _id: new ObjectId(), ...fields, entryCount: 0, createdAt: now, updatedAt: now };
  try {
    await store.categories.insertOne(category);
  } catch (err) {
    if (isDuplicateKey(err)) return 'slug-taken';
    throw err;
  }
  return category;
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
): Promise<CategoryDoc | 'not-found' | 'slug-taken' | Referenced<'slug-referenced'>> {
  const $set: Partial<CategoryDoc> = { updatedAt: new Date() };
  if (changes.name !== undefined) $set.name = changes.name;
  if (changes.slug !== undefined) $set.slug = changes.slug;
  if (typeof changes.sport === 'string') $set.sport = changes.sport;
  const filter: Filter<CategoryDoc> =
    changes.slug === undefined ? { _id: id } : { _id: id, $or: [{ slug: changes.slug }, UNREFERENCED] };
  try {
    const updated = await store.categories.findOneAndUpdate(
      filter,
      changes.sport === null ? { $set, $unset: { sport: '' } } : { $set },
      { returnDocument: 'after' },
    );
    if (updated) return updated;
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
  if (await store.categories.findOneAndDelete({ _id: id, ...UNREFERENCED })) return 'deleted';
  return (await referencedBy(store, id, 'referenced')) ?? 'not-found';
}

async function referencedBy<Refused extends 'referenced' | 'slug-referenced'>(
  store: Store,
  id: ObjectId,
  outcome: Refused,
): Promise<Referenced<Refused> | undefined> {
  const category = await store.categories.findOne({ _id: id }, { projection: { entryCount: 1 } });
  return category ? { outcome, referencedBy: category.entryCount ?? 0 } : undefined;
}

/**
 * Counts one more entry against the category, before the entry is written: from then on the
 * category cannot be deleted or re-slugged, so the entry never points at nothing. False when
 * there is no category with this slug.
 */
export async function holdCategory(store: Store, slug: string): Promise<boolean> {
  const result = await store.categories.updateOne({ slug }, { $inc: { entryCount: 1 } });
  return result.matchedCount === 1;
}

/** Gives back a hold: the entry was deleted, moved to another category, or never written. */
export async function releaseCategory(store: Store, slug: string): Promise<void> {
  await store.categories.updateOne({ slug, entryCount: { $gt: 0 } }, { $inc: { entryCount: -1 } });
}
