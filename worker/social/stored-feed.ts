import type { ObjectId } from 'mongodb';
import { isWithheld } from '../moderation/documents';
import {
  createdAtOf,
  readArray,
  readCount,
  readId,
  readOneOf,
  readRecord,
  readString,
} from '../platform/db/stored-values';
import type { FeedPostDoc } from './documents';

// The feed's stored shapes read as its views use them, whatever older code left in them (migrations-notes/legacy-documents-social.md).

export type PostMedia = { type: 'image' | 'video'; url: string; mediaId?: ObjectId };

export interface FeedPost {
  _id: ObjectId;
  /** Absent when the stored author is missing or names no id: shown with no author, as a deleted rider's post. */
  userId?: ObjectId;
  text?: string;
  media: PostMedia[];
  spotId?: ObjectId;
  counts: FeedPostDoc['counts'];
  /** Held for review or by reports (`withheld` stored): only its author reads it (worker/social/visibility.ts). */
  held: boolean;
  createdAt: Date;
}

export interface FeedComment {
  _id: ObjectId;
  postId?: ObjectId;
  userId?: ObjectId;
  text: string;
  /** As a post's. */
  held: boolean;
  createdAt: Date;
}

/** A media item: `{type, url, mediaId?}`, or a bare link stored as a string (an image, as older clients posted). */
function readPostMedia(value: unknown): PostMedia | undefined {
  if (typeof value === 'string') return value ? { type: 'image', url: value } : undefined;
  const item = readRecord(value);
  const url = readString(item?.url);
  if (!item || url === undefined) return undefined;
  const mediaId = readId(item.mediaId);
  return { type: readOneOf(item.type, ['image', 'video'] as const) ?? 'image', url, ...(mediaId ? { mediaId } : {}) };
}

/** Counts stored as numbers or numeric strings; a missing or unusable one is 0. */
export function readPostCounts(value: unknown): FeedPostDoc['counts'] {
  const counts = readRecord(value) ?? {};
  return {
    love: readCount(counts.love) ?? 0,
    respect: readCount(counts.respect) ?? 0,
    comments: readCount(counts.comments) ?? 0,
  };
}

/** A post, or undefined when it has nothing to show (neither text nor a usable media item) or no usable id. */
export function readFeedPost(doc: unknown): FeedPost | undefined {
  const stored = readRecord(doc);
  const _id = readId(stored?._id);
  if (!stored || !_id) return undefined;
  const text = readString(stored.text);
  const media = readArray(stored.media).flatMap((item) => readPostMedia(item) ?? []);
  if (text === undefined && media.length === 0) return undefined;
  const userId = readId(stored.userId);
  const spotId = readId(stored.spotId);
  return {
    _id,
    ...(userId ? { userId } : {}),
    ...(text !== undefined ? { text } : {}),
    media,
    ...(spotId ? { spotId } : {}),
    counts: readPostCounts(stored.counts),
    held: isWithheld(stored.withheld),
    createdAt: createdAtOf(stored),
  };
}

/** A comment, or undefined when it holds no text to show or no usable id. */
export function readFeedComment(doc: unknown): FeedComment | undefined {
  const stored = readRecord(doc);
  const _id = readId(stored?._id);
  const text = readString(stored?.text);
  if (!stored || !_id || text === undefined) return undefined;
  const postId = readId(stored.postId);
  const userId = readId(stored.userId);
  return {
    _id,
    ...(postId ? { postId } : {}),
    ...(userId ? { userId } : {}),
    text,
    held: isWithheld(stored.withheld),
    createdAt: createdAtOf(stored),
  };
}
