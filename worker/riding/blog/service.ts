import { type Filter, ObjectId, type UpdateFilter } from 'mongodb';
import { containsPattern } from '../../platform/db/contains-pattern';
import { isDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import type { BlogPostDoc } from '../documents';

// Every query on blog posts.

export type NewPostFields = Omit<BlogPostDoc, '_id' | 'createdAt' | 'updatedAt' | 'publishedAt'>;
export type PostChanges = Partial<Omit<NewPostFields, 'excerpt' | 'coverImageUrl' | 'authorId'>> & {
  excerpt?: string | null;
  coverImageUrl?: string | null;
};
export type PostListQuery = {
  status: BlogPostDoc['status'];
  q?: string;
  tag?: string;
  cursor?: { at: Date; id: ObjectId };
  limit: number;
};

export const findPost = (store: Store, id: ObjectId) => store.blog.findOne({ _id: id });

export async function insertPost(store: Store, fields: NewPostFields): Promise<BlogPostDoc | 'slug-taken'> {
  const now = new Date();
  const post: BlogPostDoc = {
    _id: new ObjectId(),
    ...fields,
    ...(fields.status === 'published' ? { publishedAt: now } : {}),
    createdAt: now,
    updatedAt: now,
  };
  try {
    await store.blog.insertOne(post);
  } catch (err) {
    if (isDuplicateKey(err)) return 'slug-taken';
    throw err;
  }
  return post;
}

/** Merges the changes; null removes an optional field. */
export async function updatePost(
  store: Store,
  id: ObjectId,
  changes: PostChanges,
): Promise<BlogPostDoc | 'not-found' | 'slug-taken'> {
  const now = new Date();
  const $set: Partial<BlogPostDoc> = { updatedAt: now };
  const $unset: Partial<Record<keyof BlogPostDoc, ''>> = {};
  for (const [field, value] of Object.entries(changes) as [keyof BlogPostDoc, unknown][]) {
    if (value === null) $unset[field] = '';
    else if (value !== undefined) Object.assign($set, { [field]: value });
  }
  const update = (extra: Partial<BlogPostDoc>): UpdateFilter<BlogPostDoc> => ({
    $set: { ...$set, ...extra },
    ...(Object.keys($unset).length ? { $unset } : {}),
  });
  try {
    if (changes.status === 'published') {
      // Only a post never published matches, so two racing publications stamp publishedAt once.
      const first = await store.blog.findOneAndUpdate(
        { _id: id, publishedAt: { $exists: false } },
        update({ publishedAt: now }),
        { returnDocument: 'after' },
      );
      if (first) return first;
    }
    return (await store.blog.findOneAndUpdate({ _id: id }, update({}), { returnDocument: 'after' })) ?? 'not-found';
  } catch (err) {
    if (isDuplicateKey(err)) return 'slug-taken';
    throw err;
  }
}

export async function deletePost(store: Store, id: ObjectId): Promise<'deleted' | 'not-found'> {
  const result = await store.blog.deleteOne({ _id: id });
  return result.deletedCount === 1 ? 'deleted' : 'not-found';
}

/**
 * Posts of one status, newest first: published ones by `publishedAt`, drafts by `createdAt`,
 * ties broken by id; `limit + 1` rows for the pager.
 */
export function listPosts(store: Store, query: PostListQuery): Promise<BlogPostDoc[]> {
  const at = query.status === 'published' ? 'publishedAt' : 'createdAt';
  const filter: Filter<BlogPostDoc> = { status: query.status };
  if (query.q) filter.title = containsPattern(query.q);
  if (query.tag) filter.tags = query.tag;
  if (query.cursor) {
    const { at: time, id } = query.cursor;
    filter.$or = [{ [at]: { $lt: time } }, { [at]: time, _id: { $lt: id } }];
  }
  return store.blog
    .find(filter)
    .sort({ [at]: -1, _id: -1 })
    .limit(query.limit + 1)
    .toArray();
}
