import { type Document, type Filter, ObjectId, type PullOperator, type UpdateFilter } from 'mongodb';
import type { CollectionName } from '../../platform/db/collections';
import type { ConversationDoc } from '../../platform/db/documents';

/**
 * What deleting an account does to each collection that can hold personal data. Every
 * feature that stores something of a user's adds its collection here; a test scans all
 * collections after a deletion and fails on anything that still names the user.
 */
type Cleanup =
  | { collection: CollectionName; remove: (userId: ObjectId) => Filter<Document> }
  | {
      collection: CollectionName;
      /** Removes the matching documents one at a time, so each one's follow-ups see exactly what went. */
      removeEach: (userId: ObjectId) => Filter<Document>;
      /** What a removed document (its before-image) leaves to do elsewhere: counters, dependants. */
      followUps: (removed: Document) => FollowUp[];
    }
  | {
      collection: CollectionName;
      detach: (userId: ObjectId) => {
        filter: Filter<Document>;
        /** Operators, or an update pipeline where the new value derives from the old one. */
        update: UpdateFilter<Document> | Document[];
        /** For updates inside arrays (`$[name]` paths). */
        arrayFilters?: Document[];
      };
    };

/** A write another collection needs after a document went: a counter moves, or its dependants go. */
export type FollowUp =
  | { collection: CollectionName; deleteMany: Filter<Document> }
  | { collection: CollectionName; updateOne: { filter: Filter<Document>; update: UpdateFilter<Document> } };

const REACTION_TYPES = new Set(['love', 'respect']);

export const PERSONAL_DATA: Cleanup[] = [
  { collection: 'tricklists', remove: (userId) => ({ userId }) },
  { collection: 'tricks', remove: (userId) => ({ userId }) },
  { collection: 'spotlists', remove: (userId) => ({ userId }) },
  { collection: 'spot_reviews', remove: (userId) => ({ userId }) },
  { collection: 'spot_trick_history', remove: (userId) => ({ userId }) },
  // A rider's posts take everyone's reactions, comments and saves on them along (as worker/social/feed/removal.ts does).
  {
    collection: 'feed_posts',
    removeEach: (userId) => ({ userId }),
    followUps: (post) =>
      (['reactions', 'feed_comments', 'saved_posts'] as const).map((collection) => ({
        collection,
        deleteMany: { postId: post._id },
      })),
  },
  // Each reaction and comment comes off its post's counts, which worker/social/feed/service.ts keeps exact.
  {
    collection: 'reactions',
    removeEach: (userId) => ({ userId }),
    followUps: (reaction) =>
      reaction.postId && REACTION_TYPES.has(reaction.type)
        ? [countDown(reaction.postId, `counts.${reaction.type}`)]
        : [],
  },
  {
    collection: 'feed_comments',
    removeEach: (userId) => ({ userId }),
    followUps: (comment) => (comment.postId ? [countDown(comment.postId, 'counts.comments')] : []),
  },
  { collection: 'saved_posts', remove: (userId) => ({ userId }) },
  { collection: 'bot_chats', remove: (userId) => ({ userId }) },
  { collection: 'companion_profiles', remove: (userId) => ({ userId }) },
  { collection: 'pushTokens', remove: (userId) => ({ userId }) },
  { collection: 'scheduledNotifications', remove: (userId) => ({ userId }) },
  // The rider's push tickets and receipts (worker/notifications/push/dispatch.ts) name them and their devices.
  { collection: 'notificationDeliveryLog', remove: (userId) => ({ userId }) },
  { collection: 'analytics_events', remove: (userId) => ({ userId }) },
  { collection: 'analytics_quarantine', remove: (userId) => ({ userId }) },
  // The rider's exposures, and the installations' exposures the rider adopted at sign-in (they counted as the rider).
  { collection: 'experiment_exposures', remove: (userId) => ({ $or: [{ userId }, { adoptedBy: userId }] }) },
  // Event saves store ids as strings (Live shape).
  { collection: 'event_saves', remove: (userId) => ({ userId: userId.toHexString() }) },
  // A rider's relationships to events go one at a time, each taking its count off the event.
  {
    collection: 'eventRelationships',
    removeEach: (userId) => ({ userId }),
    followUps: (row) =>
      row.eventId && typeof row.relationship === 'string'
        ? [
            {
              collection: 'events',
              updateOne: {
                filter: { _id: row.eventId },
                update: { $inc: { [`relationshipCounts.${row.relationship}`]: -1 } },
              },
            },
          ]
        : [],
  },
  // Community submissions are shared content: the events stay, without their submitter (docs/event-submissions.md).
  {
    collection: 'events',
    detach: (userId) => ({ filter: { submittedBy: userId }, update: { $unset: { submittedBy: '' } } }),
  },
  // An admin's review decisions and merges stay on the events, without naming the admin.
  {
    collection: 'events',
    detach: (userId) => ({ filter: { 'review.by': userId }, update: { $unset: { 'review.by': '' } } }),
  },
  {
    collection: 'events',
    detach: (userId) => ({ filter: { mergedBy: userId }, update: { $unset: { mergedBy: '' } } }),
  },
  // A rider's saved event filters and every notification queued for them.
  { collection: 'eventSubscriptions', remove: (userId) => ({ userId }) },
  { collection: 'eventNotificationJobs', remove: (userId) => ({ userId }) },
  // Change-log rows name who made a change: a source, or an admin (never a rider). The history of a
  // public event stays; a deleted admin's id is replaced (docs/event-notifications.md).
  {
    collection: 'eventChangeLog',
    detach: (userId) => ({ filter: { by: userId.toHexString() }, update: { $set: { by: 'deleted-admin' } } }),
  },
  // The ledger row stays so a replayed event is still recognised; only the link to the person goes.
  {
    collection: 'payment_events',
    detach: (userId) => ({ filter: { userId }, update: { $unset: { userId: '' } } }),
  },
  // Spots are shared content: they stay, without their creator.
  {
    collection: 'spots',
    detach: (userId) => ({ filter: { createdBy: userId }, update: { $unset: { createdBy: '' } } }),
  },
  // Stays inside spots (worker/riding/stays/) are shared content too: each stay the user created loses its creator.
  {
    collection: 'spots',
    detach: (userId) => ({
      filter: { 'stays.createdBy': userId },
      update: { $unset: { 'stays.$[mine].createdBy': '' } },
      arrayFilters: [{ 'mine.createdBy': userId }],
    }),
  },
  // Blog posts are the service's content: they stay, without their author.
  {
    collection: 'blog',
    detach: (userId) => ({ filter: { authorId: userId }, update: { $unset: { authorId: '' } } }),
  },
  // The companion's DM turns (worker/companion/transcript.ts) are the rider's alone: they go, before the detach below.
  { collection: 'dm_messages', remove: (userId) => ({ userId, companion: true }) },
  // Direct messages stay for the other participants, without their sender (shown as sender: null).
  {
    collection: 'dm_messages',
    detach: (userId) => ({ filter: { userId }, update: { $unset: { userId: '' } } }),
  },
  // The user leaves their conversations; the key goes too (it names them), so the remaining set can start afresh.
  {
    collection: 'conversations',
    detach: (userId) => ({
      filter: { participantIds: userId },
      update: {
        // The driver's typing refuses $pull on an untyped Document; the conversation's own shape checks it.
        $pull: { participantIds: userId, readMarkers: { userId } } satisfies PullOperator<ConversationDoc> as Document,
        $unset: { participantKey: '' },
      },
    }),
  },
  // Blocks go in both directions: the ones the user made and the ones naming them (worker/social/blocks/).
  { collection: 'user_blocks', remove: (userId) => ({ userId }) },
  { collection: 'user_blocks', remove: (userId) => ({ blockedUserId: userId }) },
  // Reports stay for moderation without their reporter; reports about the deleted rider have nothing left to act on.
  {
    collection: 'reports',
    detach: (userId) => ({ filter: { reporterId: userId }, update: { $unset: { reporterId: '' } } }),
  },
  // An admin's decisions stay on the reports they resolved, without naming the admin.
  {
    collection: 'reports',
    detach: (userId) => ({ filter: { resolvedBy: userId }, update: { $unset: { resolvedBy: '' } } }),
  },
  { collection: 'reports', remove: (userId) => ({ targetType: 'user', targetId: userId }) },
  // Client installations and their version changes (worker/growth/client-heartbeat/) are the rider's device records.
  { collection: 'client_installations', remove: (userId) => ({ userId }) },
  { collection: 'client_version_history', remove: (userId) => ({ userId }) },
  // The version-policy audit trail stays (worker/growth/version-policy/), without the admin who made the change.
  {
    collection: 'mobile_version_policy_history',
    detach: (userId) => ({ filter: { actorId: userId }, update: { $unset: { actorId: '' } } }),
  },
  { collection: 'sessions', remove: (userId) => ({ userId }) },
  // Paid AI work (worker/billing/ai-credits/): the account goes; the ledger and the usage rows stay for accounting,
  // each under a random id drawn at deletion that nothing links back to the rider (the user id is personal data).
  { collection: 'credit_accounts', remove: (userId) => ({ userId }) },
  {
    collection: 'credit_ledger',
    // A pipeline update: the monthly grant's idempotency key (`monthly:<user id>:<month>`) names the rider too.
    detach: (userId) => {
      const anonymous = new ObjectId();
      return {
        filter: { userId },
        update: [
          {
            $set: {
              userId: anonymous,
              idempotencyKey: {
                $replaceAll: {
                  input: '$idempotencyKey',
                  find: userId.toHexString(),
                  replacement: anonymous.toHexString(),
                },
              },
            },
          },
        ],
      };
    },
  },
  // Grants an admin made stay, without naming the admin.
  {
    collection: 'credit_ledger',
    detach: (userId) => ({ filter: { adminId: userId }, update: { $unset: { adminId: '' } } }),
  },
  {
    collection: 'usage_events',
    detach: (userId) => ({ filter: { userId }, update: { $set: { userId: new ObjectId() } } }),
  },
];

function countDown(postId: ObjectId, counter: string): FollowUp {
  return { collection: 'feed_posts', updateOne: { filter: { _id: postId }, update: { $inc: { [counter]: -1 } } } };
}

/** The collections an account deletion cleans, for the route's description. */
export const PERSONAL_COLLECTIONS = [...new Set(PERSONAL_DATA.map((cleanup) => cleanup.collection))];
