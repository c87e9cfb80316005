import type * as D from './documents';

/**
 * Every collection the service stores, named once. Resource code reaches a collection
 * through the typed accessor of the same name on the request's Store.
 */
export interface CollectionDocuments {
  users: D.UserDoc;
  tricklists: D.TrickListDoc;
  tricks: D.TrickDoc;
  trickipedia: D.TrickipediaDoc;
  spotlists: D.SpotListDoc;
  spots: D.SpotDoc;
  spot_reviews: D.SpotReviewDoc;
  spot_trick_history: D.SpotTrickHistoryDoc;
  feed_posts: D.FeedPostDoc;
  reactions: D.ReactionDoc;
  feed_comments: D.FeedCommentDoc;
  saved_posts: D.SavedPostDoc;
  conversations: D.ConversationDoc;
  dm_messages: D.ChatMessageDoc;
  bot_chats: D.ChatMessageDoc;
  companion_profiles: D.CompanionProfileDoc;
  blog: D.BlogPostDoc;
  categories: D.CategoryDoc;
  pushTokens: D.PushTokenDoc;
  scheduledNotifications: D.ScheduledNotificationDoc;
  notificationDeliveryLog: D.StoredDoc;
  events: D.EventDoc;
  event_saves: D.EventSaveDoc;
  client_installations: D.StoredDoc;
  client_version_history: D.StoredDoc;
  mobile_version_policies: D.StoredDoc;
  analytics_events: D.AnalyticsEventDoc;
  analytics_quarantine: D.StoredDoc;
  experiment_exposures: D.StoredDoc;
  usage_events: D.StoredDoc;
  payment_events: D.PaymentEventDoc;
  eventSources: D.StoredDoc;
  eventSourceRecords: D.StoredDoc;
  eventSubscriptions: D.StoredDoc;
  eventSaves: D.StoredDoc;
  eventChangeLog: D.StoredDoc;
  eventNotificationJobs: D.StoredDoc;
  organizers: D.StoredDoc;
}

export type CollectionName = keyof CollectionDocuments;

export const COLLECTION_NAMES = [
  'users',
  'tricklists',
  'tricks',
  'trickipedia',
  'spotlists',
  'spots',
  'spot_reviews',
  'spot_trick_history',
  'feed_posts',
  'reactions',
  'feed_comments',
  'saved_posts',
  'conversations',
  'dm_messages',
  'bot_chats',
  'companion_profiles',
  'blog',
  'categories',
  'pushTokens',
  'scheduledNotifications',
  'notificationDeliveryLog',
  'events',
  'event_saves',
  'client_installations',
  'client_version_history',
  'mobile_version_policies',
  'analytics_events',
  'analytics_quarantine',
  'experiment_exposures',
  'usage_events',
  'payment_events',
  'eventSources',
  'eventSourceRecords',
  'eventSubscriptions',
  'eventSaves',
  'eventChangeLog',
  'eventNotificationJobs',
  'organizers',
] as const satisfies readonly CollectionName[];

// Fails to compile when a collection is typed above but missing from the list.
type Unlisted = Exclude<CollectionName, (typeof COLLECTION_NAMES)[number]>;
export const everyCollectionListed: [Unlisted] extends [never] ? true : Unlisted = true;
