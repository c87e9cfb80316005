import { type Document, ObjectId, type UpdateFilter } from 'mongodb';
import { containsPattern } from '../../platform/db/contains-pattern';
import { isDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { idForms, readOne } from '../../platform/db/stored-values';
import type { BlogPostDoc } from '../documents';
import { type BlogPost, readBlogPost } from './reader';

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

/** The post of this id, stored as an ObjectId or as its hex string by older code. */
const byId = (id: ObjectId): Document => ({ _id: { $in: idForms(id) } });

const readStored = (doc: BlogPostDoc | null) => readOne('blog', doc, readBlogPost) ?? null;

export const findPost = async (store: Store, id: ObjectId) => readStored(await store.blog.findOne(byId(id)));

export async function insertPost(store: Store, fields: NewPostFields): Promise<BlogPost | 'slug-taken'> {
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
  return readBlogPost(post)!;
}

/** Merges the changes; null removes an optional field. */
export async function updatePost(
  store: Store,
  id: ObjectId,
  changes: PostChanges,
): Promise<BlogPost | 'not-found' | 'slug-taken'> {
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
        { ...byId(id), publishedAt: { $exists: false } },
        update({ publishedAt: now }),
        { returnDocument: 'after' },
      );
      if (first) return readStored(first) ?? 'not-found';
    }
    return (
      readStored(await store.blog.findOneAndUpdate(byId(id), update({}), { returnDocument: 'after' })) ?? 'not-found'
    );
  } catch (err) {
    if (isDuplicateKey(err)) return 'slug-taken';
    throw err;
  }
}

export async function deletePost(store: Store, id: ObjectId): Promise<'deleted' | 'not-found'> {
  const result = await store.blog.deleteOne(byId(id));
  return result.deletedCount === 1 ? 'deleted' : 'not-found';
}

/** A stored post as listed: with the time it is listed by, as the database read it (`listedAt`). */
export type ListedPost = BlogPostDoc & { listedAt: Date };

/** Stored posts of a status, as readPostStatus (worker/riding/blog/reader.ts) reads it: none is published. */
const OF_STATUS: Record<PostListQuery['status'], Document> = {
  published: { status: { $in: ['published', null] } },
  draft: { status: { $nin: ['published', null] } },
};

/** A stored date as the database reads it: a date, or text or a number it converts; null otherwise. */
const storedDate = (path: string) => ({ $convert: { input: path, to: 'date', onError: null, onNull: null } });

/**
 * Posts of one status, newest first: published ones by `publishedAt` (else their creation), drafts by
 * `createdAt`, ties broken by id; `limit + 1` rows for the pager. The time is read in the query because older
 * code stored some dates as text or numbers, or none: a post with no readable date is listed last.
 */
export function listPosts(store: Store, query: PostListQuery): Promise<ListedPost[]> {
  const filter: Document = { ...OF_STATUS[query.status] };
  if (query.q) filter.title = containsPattern(query.q);
  if (query.tag) filter.tags = query.tag;
  const times = query.status === 'published' ? ['$publishedAt', '$createdAt'] : ['$createdAt'];
  const listedAt = { $ifNull: [...times.map(storedDate), new Date(0)] };
  const after = query.cursor
    ? [
        {
          $match: {
            $or: [{ listedAt: { $lt: query.cursor.at } }, { listedAt: query.cursor.at, _id: { $lt: query.cursor.id } }],
          },
        },
      ]
    : [];
  return store.blog
    .aggregate<ListedPost>([
      { $match: filter },
      { $addFields: { listedAt } },
      ...after,
      { $sort: { listedAt: -1, _id: -1 } },
      { $limit: query.limit + 1 },
    ])
    .toArray();
}
