import { holds } from '../platform/db/collections';
import type {
  ContentCheckDoc,
  ConversationDoc,
  DirectMessageDoc,
  FeedCommentDoc,
  FeedPostDoc,
  FollowDoc,
  HomieDoc,
  MediaDoc,
  MediaUploadDoc,
  MediaUsageDoc,
  ReactionDoc,
  ReportDoc,
  SavedPostDoc,
  UserBlockDoc,
} from './documents';

/** Social: the feed, conversations, blocks and reports. Each collection's name and the type of its documents. */
export const SOCIAL_COLLECTIONS = {
  feed_posts: holds<FeedPostDoc>(),
  reactions: holds<ReactionDoc>(),
  feed_comments: holds<FeedCommentDoc>(),
  saved_posts: holds<SavedPostDoc>(),
  conversations: holds<ConversationDoc>(),
  dm_messages: holds<DirectMessageDoc>(),
  user_blocks: holds<UserBlockDoc>(),
  reports: holds<ReportDoc>(),
  follows: holds<FollowDoc>(),
  homies: holds<HomieDoc>(),
  media: holds<MediaDoc>(),
  media_uploads: holds<MediaUploadDoc>(),
  media_usage: holds<MediaUsageDoc>(),
  content_checks: holds<ContentCheckDoc>(),
};

type SocialCollections = typeof SOCIAL_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends SocialCollections {}
}
