import type { Document, ObjectId, PullOperator } from 'mongodb';
import type { Cleanup, FollowUp } from '../platform/db/personal-data';
import type { ConversationDoc } from './documents';

const REACTION_TYPES = new Set(['love', 'respect']);

/**
 * What deleting an account does to the social collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const SOCIAL_PERSONAL_DATA: Cleanup[] = [
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
  // Follows go both ways, each taking one off the other rider's counter (worker/social/follows/service.ts).
  {
    collection: 'follows',
    removeEach: (userId) => ({ followerId: userId }),
    followUps: (row) => [countDownUser(row.followedId, 'followerCount')],
  },
  {
    collection: 'follows',
    removeEach: (userId) => ({ followedId: userId }),
    followUps: (row) => [countDownUser(row.followerId, 'followingCount')],
  },
  { collection: 'homies', remove: (userId) => ({ riderIds: userId }) },
  // A rider's photos and videos go with their files in the MEDIA bucket; uploads in progress are aborted there.
  {
    collection: 'media',
    removeEach: (userId) => ({ ownerId: userId }),
    followUps: (media) => [{ object: { key: media.key } }],
  },
  {
    collection: 'media_uploads',
    removeEach: (userId) => ({ ownerId: userId }),
    followUps: (upload) => [{ object: { key: upload.key, uploadId: upload.r2UploadId } }],
  },
  { collection: 'media_usage', remove: (userId) => ({ userId }) },
];

function countDown(postId: ObjectId, counter: string): FollowUp {
  return { collection: 'feed_posts', updateOne: { filter: { _id: postId }, update: { $inc: { [counter]: -1 } } } };
}

function countDownUser(userId: ObjectId, counter: 'followerCount' | 'followingCount'): FollowUp {
  return { collection: 'users', updateOne: { filter: { _id: userId }, update: { $inc: { [counter]: -1 } } } };
}
