import type { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { blockBetweenLookups } from '../blocks/service';
import type { ConversationDoc, ReadMarker } from '../documents';
import type { UnreadScope } from '../messages/service';

// Every query on conversations.

/** One key per participant set, whatever the order or repetition the client sent. */
export const participantKey = (ids: ObjectId[]) => [...new Set(ids.map((id) => id.toHexString()))].sort().join('-');

/**
 * The conversation of exactly these participants: the existing one, or a new one. The unique
 * participantKey decides, so two riders opening the same chat at once get one conversation.
 */
export async function openConversation(
  store: Store,
  participantIds: ObjectId[],
): Promise<{ conversation: ConversationDoc; created: boolean }> {
  const now = new Date();
  const readMarkers: ReadMarker[] = participantIds.map((userId) => ({ userId, messageId: null, readAt: now }));
  const write = () =>
    store.conversations.findOneAndUpdate(
      { participantKey: participantKey(participantIds) },
      {
        $setOnInsert: {
          participantIds,
          lastActivityAt: now,
          lastMessageId: null,
          readMarkers,
          createdAt: now,
          updatedAt: now,
        },
      },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
  // The other insert won the unique index: this one now finds it.
  const result = await onDuplicateKey(write, write);
  return { conversation: result.value!, created: result.lastErrorObject?.updatedExisting === false };
}

/** The conversation when the user takes part in it; null for unknown ids and for anyone else's. */
export function findConversation(store: Store, id: ObjectId, userId: ObjectId) {
  return store.conversations.findOne({ _id: id, participantIds: userId });
}

/**
 * The conversation when the user takes part in it, and whether a block stands between the user and another
 * participant (either way), in one read; null for unknown ids and for anyone else's.
 */
export async function findConversationWithBlock(
  store: Store,
  id: ObjectId,
  userId: ObjectId,
): Promise<{ conversation: ConversationDoc; blocked: boolean } | null> {
  const [row] = await store.conversations
    .aggregate<ConversationDoc & { blockedByRider: unknown[]; blockedRider: unknown[] }>([
      { $match: { _id: id, participantIds: userId } },
      { $limit: 1 },
      ...blockBetweenLookups(userId, 'participantIds', { byRider: 'blockedByRider', ofRider: 'blockedRider' }),
    ])
    .toArray();
  if (!row) return null;
  const { blockedByRider, blockedRider, ...conversation } = row;
  return { conversation, blocked: blockedByRider.length + blockedRider.length > 0 };
}

/** The sort key of the list: most recent activity first, then newest id. */
export type ActivityKey = { at: Date; id: ObjectId };

/** A page of the user's conversations, most recent activity first (`limit + 1` rows for the pager). */
export function listConversations(store: Store, userId: ObjectId, page: { limit: number; cursor?: ActivityKey }) {
  const after = page.cursor
    ? {
        $or: [
          { lastActivityAt: { $lt: page.cursor.at } },
          { lastActivityAt: page.cursor.at, _id: { $lt: page.cursor.id } },
        ],
      }
    : {};
  return store.conversations
    .find({ participantIds: userId, ...after })
    .sort({ lastActivityAt: -1, _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

export const markerOf = (conversation: Pick<ConversationDoc, 'readMarkers'>, userId: ObjectId) =>
  conversation.readMarkers.find((marker) => marker.userId.equals(userId));

/** Whether the conversation holds a message newer than the user's read marker (sent by anyone). */
export function unreadScope(
  conversation: Pick<ConversationDoc, '_id' | 'lastMessageId' | 'readMarkers'>,
  userId: ObjectId,
): UnreadScope | undefined {
  if (!conversation.lastMessageId) return undefined;
  const after = markerOf(conversation, userId)?.messageId ?? null;
  // Hex strings of equal length order as the ids do.
  if (after && after.toHexString() >= conversation.lastMessageId.toHexString()) return undefined;
  return { conversationId: conversation._id, after };
}

/**
 * Where the user may have unread messages, across all their conversations: one indexed read of
 * the markers, keeping only conversations whose newest message is past the user's marker.
 */
export async function unreadScopes(store: Store, userId: ObjectId): Promise<UnreadScope[]> {
  const rows = await store.conversations
    .find(
      { participantIds: userId, lastMessageId: { $ne: null } },
      { projection: { lastMessageId: 1, readMarkers: 1 } },
    )
    .toArray();
  return rows.flatMap((row) => {
    const scope = unreadScope(row, userId);
    return scope ? [scope] : [];
  });
}

/**
 * Records a sent message in its conversation in one write: the newest message and activity (concurrent messages
 * keep the newest), and the sender's read marker moved to it, never back (the array filter matches only a marker
 * behind it; the `$not` form also matches a null marker, where `$lt` on an ObjectId would not).
 */
export async function recordSentMessage(
  store: Store,
  conversationId: ObjectId,
  message: { _id: ObjectId; userId: ObjectId; createdAt: Date },
) {
  await store.conversations.updateOne(
    { _id: conversationId },
    {
      $max: { lastActivityAt: message.createdAt, lastMessageId: message._id },
      $set: {
        updatedAt: message.createdAt,
        'readMarkers.$[sender]': { userId: message.userId, messageId: message._id, readAt: message.createdAt },
      },
    },
    { arrayFilters: [{ 'sender.userId': message.userId, 'sender.messageId': { $not: { $gte: message._id } } }] },
  );
}

/**
 * Moves the user's read marker to the message, never back: the condition on the stored marker
 * makes a late or repeated read a no-op. Returns the marker as stored afterwards.
 */
export async function moveReadMarker(
  store: Store,
  conversationId: ObjectId,
  userId: ObjectId,
  messageId: ObjectId,
): Promise<ReadMarker | undefined> {
  const now = new Date();
  const behind = { userId, $or: [{ messageId: null }, { messageId: { $lt: messageId } }] };
  const moved = await store.conversations.findOneAndUpdate(
    { _id: conversationId, readMarkers: { $elemMatch: behind } },
    // The whole element in one path: devdb refuses two `readMarkers.$.` paths in one $set as a conflict (mongod allows it).
    { $set: { 'readMarkers.$': { userId, messageId, readAt: now } } },
    { returnDocument: 'after' },
  );
  const conversation = moved ?? (await store.conversations.findOne({ _id: conversationId }));
  return conversation ? markerOf(conversation, userId) : undefined;
}

/**
 * Per rider (by hex id; absent means 0), the conversations whose newest message is past their read
 * marker: the badge of a message push (docs/message-pushes.md). One aggregation for all riders. It
 * equals counting conversations with unread messages, since sending moves the sender's own marker
 * to their message (worker/social/messages/routes.ts), so a newer message than the marker is someone else's.
 */
export async function unreadConversationCounts(store: Store, userIds: ObjectId[]): Promise<Map<string, number>> {
  if (!userIds.length) return new Map();
  const rows = await store.conversations
    .aggregate<{ _id: ObjectId; count: number }>([
      { $match: { participantIds: { $in: userIds }, lastMessageId: { $ne: null } } },
      { $project: { lastMessageId: 1, readMarkers: 1 } },
      { $unwind: '$readMarkers' },
      { $match: { 'readMarkers.userId': { $in: userIds } } },
      {
        $match: {
          $expr: {
            $or: [
              { $eq: [{ $ifNull: ['$readMarkers.messageId', null] }, null] },
              { $lt: ['$readMarkers.messageId', '$lastMessageId'] },
            ],
          },
        },
      },
      { $group: { _id: '$readMarkers.userId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id.toHexString(), row.count]));
}
