import type { ObjectId } from 'mongodb';
import {
  createdAtOf,
  readDate,
  readId,
  readRecord,
  readString,
  readStrings,
  updatedAtOf,
} from '../../platform/db/stored-values';

export type PostStatus = 'draft' | 'published';

/** A stored blog post as the service uses it, whatever older code left (migrations-notes/legacy-documents-riding.md). */
export interface BlogPost {
  _id: ObjectId;
  title: string;
  slug: string;
  body: string;
  excerpt?: string;
  coverImageUrl?: string;
  tags: string[];
  status: PostStatus;
  publishedAt?: Date;
  authorId?: ObjectId;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A stored post's status: posts written before statuses existed have none and were public, so none (or null) is
 * published; any other text is a draft, so nothing unknown is shown to the public. `listPosts` matches the same.
 */
export function readPostStatus(value: unknown): PostStatus {
  if (value === undefined || value === null || value === 'published') return 'published';
  return 'draft';
}

/** Reads a stored post; undefined (unreadable) only without a usable `_id`. */
export function readBlogPost(stored: unknown): BlogPost | undefined {
  const doc = readRecord(stored);
  const _id = readId(doc?._id);
  if (!doc || !_id) return undefined;
  const optional = {
    excerpt: readString(doc.excerpt),
    coverImageUrl: readString(doc.coverImageUrl),
    publishedAt: readDate(doc.publishedAt),
    authorId: readId(doc.authorId),
  };
  return {
    _id,
    title: readString(doc.title) ?? '',
    slug: readString(doc.slug) ?? _id.toHexString(),
    body: readString(doc.body) ?? '',
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
    tags: readStrings(doc.tags),
    status: readPostStatus(doc.status),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
