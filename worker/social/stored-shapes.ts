import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import type { SOCIAL_COLLECTIONS } from './collections';

/** What social stores, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const SOCIAL_STORED_SHAPES: StoredShapes<typeof SOCIAL_COLLECTIONS> = {
  feed_posts: {
    ...STAMPED,
    userId: 'id',
    text: 'text',
    spotId: 'id',
    'media.$.mediaId': 'id',
    'counts.love': 'number',
    'counts.respect': 'number',
    'counts.comments': 'number',
    'withheld.at': 'date',
  },
  reactions: { ...STAMPED, postId: 'id', userId: 'id' },
  feed_comments: { ...STAMPED, postId: 'id', userId: 'id', text: 'text', 'withheld.at': 'date' },
  saved_posts: { ...STAMPED, postId: 'id', userId: 'id' },
  conversations: {
    ...STAMPED,
    participantIds: 'ids',
    lastActivityAt: 'date',
    lastMessageId: 'id',
    'readMarkers.$.userId': 'id',
    'readMarkers.$.messageId': 'id',
    'readMarkers.$.readAt': 'date',
  },
  dm_messages: { ...STAMPED, conversationId: 'id', userId: 'id', text: 'text', filtered: 'boolean' },
  user_blocks: { ...STAMPED, userId: 'id', blockedUserId: 'id' },
  reports: {
    ...STAMPED,
    reporterId: 'id',
    targetId: 'id',
    postId: 'id',
    categories: 'texts',
    resolvedBy: 'id',
    resolvedAt: 'date',
  },
  follows: { ...STAMPED, followerId: 'id', followedId: 'id' },
  homies: { ...STAMPED, riderIds: 'ids' },
  media: {
    ...STAMPED,
    ownerId: 'id',
    bytes: 'number',
    width: 'number',
    height: 'number',
    durationMs: 'number',
    hiddenAt: 'date',
  },
  media_uploads: { ...STAMPED, ownerId: 'id', bytes: 'number', partBytes: 'number', completingAt: 'date' },
  media_usage: { userId: 'id', bytes: 'number' },
  content_checks: { ...STAMPED, 'target.id': 'id', dueAt: 'date', attempts: 'number', leaseUntil: 'date' },
};
