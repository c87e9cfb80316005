import type { ObjectId } from 'mongodb';
import {
  createdAtOf,
  readArray,
  readBoolean,
  readDate,
  readId,
  readIds,
  readRecord,
  readString,
  updatedAtOf,
} from '../platform/db/stored-values';
import type { ReadMarker } from './documents';

// Conversations and direct messages read as their views and queries use them, whatever older code left in them
// (migrations-notes/legacy-documents-social.md).

export interface Conversation {
  _id: ObjectId;
  participantIds: ObjectId[];
  lastActivityAt: Date;
  lastMessageId: ObjectId | null;
  readMarkers: ReadMarker[];
  createdAt: Date;
  updatedAt: Date;
}

export interface DirectMessage {
  _id: ObjectId;
  conversationId?: ObjectId;
  /** Absent once the sender's account is deleted, or when older code stored none. */
  userId?: ObjectId;
  text: string;
  /** The text matched the word filter (DirectMessageDoc). */
  filtered?: true;
  createdAt: Date;
}

/** A marker naming no rider is left out; one naming no message is before the first read; an unusable time is `fallback`. */
function readMarkers(value: unknown, fallback: Date): ReadMarker[] {
  return readArray(value).flatMap((item) => {
    const marker = readRecord(item);
    const userId = readId(marker?.userId);
    if (!marker || !userId) return [];
    return [{ userId, messageId: readId(marker.messageId) ?? null, readAt: readDate(marker.readAt) ?? fallback }];
  });
}

/** A conversation, or undefined when its id is unusable; an activity date stored unusable is its last change. */
export function readConversation(doc: unknown): Conversation | undefined {
  const stored = readRecord(doc);
  const _id = readId(stored?._id);
  if (!stored || !_id) return undefined;
  const createdAt = createdAtOf(stored);
  return {
    _id,
    // Each rider once, also when older code stored one in both forms.
    participantIds: [...new Map(readIds(stored.participantIds).map((id) => [id.toHexString(), id])).values()],
    lastActivityAt: readDate(stored.lastActivityAt) ?? updatedAtOf(stored),
    lastMessageId: readId(stored.lastMessageId) ?? null,
    readMarkers: readMarkers(stored.readMarkers, createdAt),
    createdAt,
    updatedAt: updatedAtOf(stored),
  };
}

/** A message, or undefined when it holds no text to show or no usable id. */
export function readDirectMessage(doc: unknown): DirectMessage | undefined {
  const stored = readRecord(doc);
  const _id = readId(stored?._id);
  const text = readString(stored?.text);
  if (!stored || !_id || text === undefined) return undefined;
  const conversationId = readId(stored.conversationId);
  const userId = readId(stored.userId);
  return {
    _id,
    ...(conversationId ? { conversationId } : {}),
    ...(userId ? { userId } : {}),
    text,
    ...(readBoolean(stored.filtered) ? { filtered: true as const } : {}),
    createdAt: createdAtOf(stored),
  };
}
