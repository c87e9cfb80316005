import { ObjectId } from 'mongodb';
import { anyIdOf, noIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import { readEach, readId } from '../../platform/db/stored-values';
import type { DirectMessageDoc } from '../documents';
import { type DirectMessage, readDirectMessage } from '../stored-messaging';

// Every query on direct messages (dm_messages).

/** A message sent now: its sender is there (only a deleted account's messages lose theirs). */
export type NewDirectMessage = DirectMessageDoc & { userId: ObjectId };

/** A message as it will be stored, its id made here (or given) so the conversation's write can name it. */
export function newMessage(
  conversationId: ObjectId,
  userId: ObjectId,
  text: string,
  options: { filtered?: boolean; _id?: ObjectId; createdAt?: Date } = {},
): NewDirectMessage {
  const createdAt = options.createdAt ?? new Date();
  return {
    _id: options._id ?? new ObjectId(),
    conversationId,
    userId,
    text,
    ...(options.filtered ? { filtered: true } : {}),
    createdAt,
    updatedAt: createdAt,
  };
}

export async function insertMessage(store: Store, message: DirectMessageDoc): Promise<void> {
  await store.dm_messages.insertOne(message);
}

/**
 * A page of a conversation's messages (`limit + 1` rows for the pager): newest first, older than
 * `cursor` when given; or, with `after`, the ones newer than that message, oldest first.
 */
export function listMessages(
  store: Store,
  conversationId: ObjectId,
  page: { limit: number; cursor?: ObjectId; after?: ObjectId },
) {
  // Messages older code stored name their conversation by its hex string too.
  if (page.after) {
    return store.dm_messages
      .find({ conversationId: anyIdOf(conversationId), _id: { $gt: page.after } })
      .sort({ _id: 1 })
      .limit(page.limit + 1)
      .toArray();
  }
  return store.dm_messages
    .find({ conversationId: anyIdOf(conversationId), ...idPageFilter(page.cursor) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export async function messageInConversation(store: Store, conversationId: ObjectId, messageId: ObjectId) {
  const found = await store.dm_messages.countDocuments(
    { _id: messageId, conversationId: anyIdOf(conversationId) },
    { limit: 1 },
  );
  return found > 0;
}

/** The messages with these ids, by hex id; one unreadable is left out. */
export async function messagesById(store: Store, ids: ObjectId[]): Promise<Map<string, DirectMessage>> {
  if (ids.length === 0) return new Map();
  const rows = await store.dm_messages.find({ _id: { $in: ids } }).toArray();
  return new Map(readEach('dm_messages', rows, readDirectMessage).map((row) => [row._id.toHexString(), row]));
}

/** A conversation the reader may have unread messages in, and their read marker there. */
export type UnreadScope = { conversationId: ObjectId; after: ObjectId | null };

/**
 * Unread messages per conversation (by hex id; absent means 0): those after the reader's marker
 * not sent by the reader. One aggregation whose `$or` clauses each run on the
 * { conversationId, _id } index, so it reads only the unread messages themselves.
 */
export async function unreadCounts(store: Store, readerId: ObjectId, scopes: UnreadScope[]) {
  if (scopes.length === 0) return new Map<string, number>();
  const rows = await store.dm_messages
    .aggregate<{ _id: ObjectId; count: number }>([
      {
        $match: {
          $or: scopes.map((scope) => ({
            conversationId: anyIdOf(scope.conversationId),
            ...(scope.after ? { _id: { $gt: scope.after } } : {}),
            userId: noIdOf(readerId),
          })),
        },
      },
      { $group: { _id: '$conversationId', count: { $sum: 1 } } },
    ])
    .toArray();
  // Messages naming their conversation by its hex string count with those naming it by its ObjectId.
  const counts = new Map<string, number>();
  for (const row of rows) {
    const id = readId(row._id)?.toHexString();
    if (id) counts.set(id, (counts.get(id) ?? 0) + row.count);
  }
  return counts;
}
