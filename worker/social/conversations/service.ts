import type { Document, ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import { anyIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import { storedList } from '../../platform/db/stored-expressions';
import { idForms, readArray, readEach, readId, readOne } from '../../platform/db/stored-values';
import { blockBetweenLookups, blockedBetween } from '../blocks/service';
import type { ConversationDoc, ReadMarker } from '../documents';
import type { UnreadScope } from '../messages/service';
import { type Conversation, readConversation } from '../stored-messaging';

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
): Promise<{ conversation: Conversation; created: boolean }> {
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
  const conversation = readConversation(result.value);
  if (!conversation) throw new Error('conversation upsert returned no readable document');
  return { conversation, created: result.lastErrorObject?.updatedExisting === false };
}

/**
 * The conversation and the rider's part in it, matched whichever form older code stored the ids in (the
 * conversation's own, the participants'): an ObjectId or its hex string.
 */
const takingPart = (id: ObjectId, userId: ObjectId) => ({ _id: anyIdOf(id), participantIds: anyIdOf(userId) });

/** The conversation when the user takes part in it; undefined for unknown ids, anyone else's and an unreadable one. */
export async function findConversation(store: Store, id: ObjectId, userId: ObjectId) {
  return readOne('conversations', await store.conversations.findOne(takingPart(id, userId)), readConversation);
}

/**
 * The conversation when the user takes part in it, and whether a block stands between the user and another
 * participant (either way), in one read; null for unknown ids and for anyone else's.
 */
export async function findConversationWithBlock(
  store: Store,
  id: ObjectId,
  userId: ObjectId,
): Promise<{ conversation: Conversation; blocked: boolean } | null> {
  const [row] = await store.conversations
    .aggregate<ConversationDoc & { blockedByRider: unknown[]; blockedRider: unknown[] }>([
      { $match: takingPart(id, userId) },
      { $limit: 1 },
      ...blockBetweenLookups(userId, 'participantIds', { byRider: 'blockedByRider', ofRider: 'blockedRider' }),
    ])
    .toArray();
  const conversation = readOne('conversations', row, readConversation);
  if (!row || !conversation) return null;
  if (row.blockedByRider.length + row.blockedRider.length > 0) return { conversation, blocked: true };
  // The lookups join ObjectIds only: participant ids older code stored as hex strings are checked on their own.
  const storedAsText = readArray(row.participantIds).some((id) => typeof id === 'string');
  const others = conversation.participantIds.filter((id) => !id.equals(userId));
  return { conversation, blocked: storedAsText && (await blockedBetween(store, userId, others)) };
}

/**
 * The sort key of the list: most recent activity first, then newest id. `at` is null past every conversation
 * with an activity date, among those older code stored without a usable one, listed newest id first.
 */
export type ActivityKey = { at: Date | null; id: ObjectId };

/** A row's place in the list as stored, for the next page's cursor. */
export function activityKeyOf(row: { _id: unknown; lastActivityAt?: unknown }): (string | number | null)[] {
  const at = row.lastActivityAt instanceof Date ? row.lastActivityAt.getTime() : null;
  // An id unusable as an ObjectId ends the ties: `$lt` the lowest ObjectId matches nothing.
  return [at, readId(row._id)?.toHexString() ?? '0'.repeat(24)];
}

const DATED = { $type: 'date' } as const;

/**
 * A page of the user's conversations, most recent activity first (`limit + 1` rows for the pager): those with an
 * activity date, then, as a tail paged by id, those older code stored without one, which sort below every date
 * and which no date cursor reaches. Each part is served by the participantIds_lastActivityAt index.
 */
export async function listConversations(store: Store, userId: ObjectId, page: { limit: number; cursor?: ActivityKey }) {
  const mine = { participantIds: anyIdOf(userId) };
  const dated = page.cursor?.at === null ? [] : await datedConversations(store, mine, page.limit, page.cursor);
  if (dated.length > page.limit) return dated;
  const undated = await store.conversations
    .find({
      ...mine,
      lastActivityAt: { $not: DATED },
      ...idPageFilter(page.cursor?.at === null ? page.cursor.id : undefined),
    })
    .sort({ _id: -1 })
    .limit(page.limit + 1 - dated.length)
    .toArray();
  return [...dated, ...undated];
}

function datedConversations(store: Store, mine: Document, limit: number, cursor: ActivityKey | undefined) {
  const after = cursor?.at
    ? { $or: [{ lastActivityAt: { $lt: cursor.at } }, { lastActivityAt: cursor.at, _id: { $lt: cursor.id } }] }
    : { lastActivityAt: DATED };
  return store.conversations
    .find({ ...mine, ...after })
    .sort({ lastActivityAt: -1, _id: -1 })
    .limit(limit + 1)
    .toArray();
}

export const markerOf = (conversation: Pick<Conversation, 'readMarkers'>, userId: ObjectId) =>
  conversation.readMarkers.find((marker) => marker.userId.equals(userId));

/** Whether the conversation holds a message newer than the user's read marker (sent by anyone). */
export function unreadScope(
  conversation: Pick<Conversation, '_id' | 'lastMessageId' | 'readMarkers'>,
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
      { participantIds: anyIdOf(userId), lastMessageId: { $ne: null } },
      { projection: { lastMessageId: 1, readMarkers: 1 } },
    )
    .toArray();
  return readEach('conversations', rows, readConversation).flatMap((row) => {
    const scope = unreadScope(row, userId);
    return scope ? [scope] : [];
  });
}

/**
 * The stored read markers with the rider's moved to `messageId` unless it is already there or past it (never
 * back), as one expression of an update pipeline: the write stays atomic, and works the same on markers older code
 * stored (missing, not a list, the rider's id as a hex string, the message id as a string or null). A null, missing
 * or string message id sorts below every ObjectId, so such a marker is behind any message.
 */
function markersMovedTo(userId: ObjectId, messageId: ObjectId, at: Date): Document {
  const isRider = (marker: string) => ({ $in: [`${marker}.userId`, { $literal: idForms(userId) }] });
  const markers = { $filter: { input: storedList('$readMarkers'), cond: { $eq: [{ $type: '$$this' }, 'object'] } } };
  const moved = { userId, messageId, readAt: at };
  return {
    $let: {
      vars: { markers },
      in: {
        $let: {
          vars: { own: { $arrayElemAt: [{ $filter: { input: '$$markers', as: 'm', cond: isRider('$$m') } }, 0] } },
          in: {
            $concatArrays: [
              { $filter: { input: '$$markers', as: 'm', cond: { $not: [isRider('$$m')] } } },
              [{ $cond: [{ $gte: ['$$own.messageId', messageId] }, '$$own', { $literal: moved }] }],
            ],
          },
        },
      },
    },
  };
}

/**
 * Records a sent message in its conversation in one write: the newest message and activity (concurrent messages
 * keep the newest; a date or id older code stored as a string sorts below the new one), and the sender's read
 * marker moved to it, never back.
 */
export async function recordSentMessage(
  store: Store,
  conversationId: ObjectId,
  message: { _id: ObjectId; userId: ObjectId; createdAt: Date },
) {
  await store.conversations.updateOne({ _id: anyIdOf(conversationId) }, [
    {
      $set: {
        lastActivityAt: { $max: ['$lastActivityAt', message.createdAt] },
        lastMessageId: { $max: ['$lastMessageId', message._id] },
        updatedAt: message.createdAt,
        readMarkers: markersMovedTo(message.userId, message._id, message.createdAt),
      },
    },
  ]);
}

/**
 * Moves the user's read marker to the message, never back, in one write (a late or repeated read leaves it as it
 * is). Returns the marker as stored afterwards.
 */
export async function moveReadMarker(
  store: Store,
  conversationId: ObjectId,
  userId: ObjectId,
  messageId: ObjectId,
): Promise<ReadMarker | undefined> {
  const moved = await store.conversations.findOneAndUpdate(
    { _id: anyIdOf(conversationId) },
    [{ $set: { readMarkers: markersMovedTo(userId, messageId, new Date()) } }],
    { returnDocument: 'after' },
  );
  const conversation = readOne('conversations', moved, readConversation);
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
  // Riders match in both id forms older code stored them in; their counts are summed under the ObjectId.
  const rows = await store.conversations
    .aggregate<{ _id: unknown; count: number }>([
      { $match: { participantIds: anyIdOf(...userIds), lastMessageId: { $ne: null } } },
      { $project: { lastMessageId: 1, readMarkers: 1 } },
      { $unwind: '$readMarkers' },
      { $match: { 'readMarkers.userId': anyIdOf(...userIds) } },
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
  const counts = new Map<string, number>();
  for (const row of rows) {
    const id = readId(row._id)?.toHexString();
    if (id) counts.set(id, (counts.get(id) ?? 0) + row.count);
  }
  return counts;
}
