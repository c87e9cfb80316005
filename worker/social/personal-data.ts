import { incrementCounters } from '../platform/db/counter-update';
import { anyIdOf } from '../platform/db/id-match';
import type { Cleanup, FollowUp } from '../platform/db/personal-data';
import { storedList } from '../platform/db/stored-expressions';
import { idForms, readId } from '../platform/db/stored-values';
import { countsMovedBy } from './feed/counts';

const REACTION_TYPES = new Set(['love', 'respect']);

// The rider's id matches in both forms older code stored it in (an ObjectId or its hex string), so nothing of
// theirs stays behind for being stored the old way.

/**
 * What deleting an account does to the social collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const SOCIAL_PERSONAL_DATA: Cleanup[] = [
  // A rider's posts take everyone's reactions, comments and saves on them along (as worker/social/feed/removal.ts does).
  {
    collection: 'feed_posts',
    removeEach: (userId) => ({ userId: anyIdOf(userId) }),
    followUps: (post) =>
      (['reactions', 'feed_comments', 'saved_posts'] as const).map((collection) => ({
        collection,
        deleteMany: { postId: sameIdAs(post._id) },
      })),
  },
  // Each reaction and comment comes off its post's counts, which worker/social/feed/service.ts keeps exact.
  {
    collection: 'reactions',
    removeEach: (userId) => ({ userId: anyIdOf(userId) }),
    followUps: (reaction) => (REACTION_TYPES.has(reaction.type) ? countDown(reaction.postId, reaction.type) : []),
  },
  {
    collection: 'feed_comments',
    removeEach: (userId) => ({ userId: anyIdOf(userId) }),
    followUps: (comment) => countDown(comment.postId, 'comments'),
  },
  { collection: 'saved_posts', remove: (userId) => ({ userId: anyIdOf(userId) }) },
  // Direct messages stay for the other participants, without their sender (shown as sender: null).
  {
    collection: 'dm_messages',
    detach: (userId) => ({ filter: { userId: anyIdOf(userId) }, update: { $unset: { userId: '' } } }),
  },
  // The user leaves their conversations; the key goes too (it names them), so the remaining set can start afresh.
  {
    collection: 'conversations',
    detach: (userId) => {
      const forms = idForms(userId);
      const notTheirs = (path: string) => ({ $not: [{ $in: [path, forms] }] });
      return {
        filter: { participantIds: anyIdOf(userId) },
        // A pipeline, not $pull: older code stored participants or read markers as a single value, where $pull fails.
        update: [
          {
            $set: {
              participantIds: { $filter: { input: storedList('$participantIds'), cond: notTheirs('$$this') } },
              readMarkers: {
                $filter: {
                  input: storedList('$readMarkers'),
                  cond: { $and: [{ $eq: [{ $type: '$$this' }, 'object'] }, notTheirs('$$this.userId')] },
                },
              },
            },
          },
          { $unset: 'participantKey' },
        ],
      };
    },
  },
  // Blocks go in both directions: the ones the user made and the ones naming them (worker/social/blocks/).
  { collection: 'user_blocks', remove: (userId) => ({ userId: anyIdOf(userId) }) },
  { collection: 'user_blocks', remove: (userId) => ({ blockedUserId: anyIdOf(userId) }) },
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
    removeEach: (userId) => ({ followerId: anyIdOf(userId) }),
    followUps: (row) => countDownUser(row.followedId, 'followerCount'),
  },
  {
    collection: 'follows',
    removeEach: (userId) => ({ followedId: anyIdOf(userId) }),
    followUps: (row) => countDownUser(row.followerId, 'followingCount'),
  },
  { collection: 'homies', remove: (userId) => ({ riderIds: anyIdOf(userId) }) },
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

/** Matches what names the stored id, in either form when it reads as an ObjectId. */
function sameIdAs(stored: unknown): unknown {
  const id = readId(stored);
  return id ? anyIdOf(id) : stored;
}

/** One off the post's count, as worker/social/feed/service.ts moves it (also when stored as a string); none for no post. */
function countDown(storedPostId: unknown, counter: 'love' | 'respect' | 'comments'): FollowUp[] {
  const postId = readId(storedPostId);
  if (!postId) return [];
  return [
    { collection: 'feed_posts', updateOne: { filter: { _id: postId }, update: countsMovedBy({ [counter]: -1 }) } },
  ];
}

function countDownUser(storedUserId: unknown, counter: 'followerCount' | 'followingCount'): FollowUp[] {
  const userId = readId(storedUserId);
  if (!userId) return [];
  return [
    { collection: 'users', updateOne: { filter: { _id: userId }, update: incrementCounters({ [counter]: -1 }) } },
  ];
}
