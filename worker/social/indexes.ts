import type { IndexDeclaration } from '../platform/db/indexes';

/** The indexes social relies on, each with its reason (printed into migrations-notes/indexes.md). */
export const SOCIAL_INDEXES: IndexDeclaration[] = [
  {
    collection: 'conversations',
    key: { participantKey: 1 },
    options: { name: 'participantKey_unique', unique: true, sparse: true },
    why: 'the same participant set finds one conversation, also when two create it at once',
  },
  {
    collection: 'conversations',
    key: { participantIds: 1, lastActivityAt: -1, _id: -1 },
    options: { name: 'participantIds_lastActivityAt' },
    why: "a rider's conversations, most recent first; unread totals; account deletion",
  },
  {
    collection: 'dm_messages',
    key: { conversationId: 1, _id: 1 },
    options: { name: 'conversationId_id' },
    why: "a conversation's messages in either direction, and unread counts after a read marker",
  },
  {
    collection: 'dm_messages',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: 'account deletion detaches the sender',
  },
  {
    collection: 'reactions',
    key: { postId: 1, userId: 1 },
    options: { name: 'postId_userId_unique', unique: true },
    why: "one reaction per rider and post; a post's reactions go with it",
  },
  {
    collection: 'reactions',
    key: { userId: 1, postId: 1 },
    options: { name: 'userId_postId' },
    why: "a reader's own reactions on a feed page; account deletion",
  },
  {
    collection: 'feed_comments',
    key: { postId: 1, _id: -1 },
    options: { name: 'postId__id' },
    why: "a post's comments, newest first; they go with the post",
  },
  {
    collection: 'feed_comments',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: "account deletion removes a rider's comments",
  },
  {
    collection: 'saved_posts',
    key: { userId: 1, postId: 1 },
    options: { name: 'userId_postId_unique', unique: true },
    why: "one save per rider and post; a reader's saved state on a feed page",
  },
  {
    collection: 'saved_posts',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId__id' },
    why: "a rider's saved posts, newest saved first",
  },
  {
    collection: 'saved_posts',
    key: { postId: 1 },
    options: { name: 'postId' },
    why: "a post's saves go with it",
  },
  {
    collection: 'user_blocks',
    key: { userId: 1, blockedUserId: 1 },
    options: { name: 'userId_blockedUserId_unique', unique: true },
    why: "one block per pair; a reader's blocked ids for the feed; account deletion",
  },
  {
    collection: 'user_blocks',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId__id' },
    why: "a rider's blocks, newest first",
  },
  {
    collection: 'user_blocks',
    key: { blockedUserId: 1, userId: 1 },
    options: { name: 'blockedUserId_userId' },
    why: 'whether either rider blocked the other (messages); account deletion of the blocked',
  },
  {
    collection: 'reports',
    key: { reporterId: 1, targetType: 1, targetId: 1 },
    options: {
      name: 'open_reporterId_target_unique',
      unique: true,
      partialFilterExpression: { status: 'open', reporterId: { $exists: true } },
    },
    why: 'one open report per reporter and target (partial: open reports with a reporter); account deletion',
  },
  {
    collection: 'reports',
    key: { status: 1, _id: -1 },
    options: { name: 'status__id' },
    why: 'the admin desk, newest first per status',
  },
  {
    collection: 'reports',
    key: { targetType: 1, targetId: 1 },
    options: { name: 'targetType_targetId' },
    why: 'account deletion removes reports about the deleted rider',
  },
  {
    collection: 'dm_messages',
    key: { userId: 1, companion: 1, createdAt: -1, _id: -1 },
    options: { name: 'userId_companion_createdAt' },
    why: "the companion's memory: a rider's newest web DM turns; account deletion removes them",
  },
  {
    collection: 'follows',
    key: { followerId: 1, followedId: 1 },
    options: { name: 'followerId_followedId_unique', unique: true },
    why: 'one follow per direction and pair, also when the same follow arrives twice at once',
  },
  {
    collection: 'follows',
    key: { followerId: 1, _id: -1 },
    options: { name: 'followerId__id' },
    why: "who a rider follows, newest first; the following feed's authors; account deletion",
  },
  {
    collection: 'follows',
    key: { followedId: 1, _id: -1 },
    options: { name: 'followedId__id' },
    why: "a rider's followers, newest first; account deletion",
  },
  {
    collection: 'homies',
    key: { pairKey: 1 },
    options: { name: 'pairKey_unique', unique: true },
    why: 'a pair forms once, also when both follow at the same moment',
  },
  {
    collection: 'homies',
    key: { riderIds: 1, _id: -1 },
    options: { name: 'riderIds__id' },
    why: "a rider's homies, newest first; their count; account deletion",
  },
  {
    collection: 'feed_posts',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId__id' },
    why: "the following feed: followed riders' posts newest first; a profile's post count; account deletion",
  },
];
