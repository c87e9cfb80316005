import type * as D from './documents';

/** Names a collection's document type; the value only carries the type. */
const holds = <T>() => undefined as unknown as T;

/**
 * Every collection the service stores, declared once: its name and its document type.
 * Resource code reaches a collection through the typed accessor of the same name on the
 * request's Store; account deletion and its test walk the names.
 */
const COLLECTIONS = {
  users: holds<D.UserDoc>(),
  tricklists: holds<D.TrickListDoc>(),
  tricks: holds<D.TrickDoc>(),
  trickipedia: holds<D.TrickipediaDoc>(),
  spotlists: holds<D.SpotListDoc>(),
  spots: holds<D.SpotDoc>(),
  spot_reviews: holds<D.SpotReviewDoc>(),
  spot_trick_history: holds<D.SpotTrickHistoryDoc>(),
  feed_posts: holds<D.FeedPostDoc>(),
  reactions: holds<D.ReactionDoc>(),
  feed_comments: holds<D.FeedCommentDoc>(),
  saved_posts: holds<D.SavedPostDoc>(),
  conversations: holds<D.ConversationDoc>(),
  dm_messages: holds<D.DirectMessageDoc>(),
  bot_chats: holds<D.ChatMessageDoc>(),
  companion_profiles: holds<D.CompanionProfileDoc>(),
  blog: holds<D.BlogPostDoc>(),
  categories: holds<D.CategoryDoc>(),
  pushTokens: holds<D.PushTokenDoc>(),
  scheduledNotifications: holds<D.ScheduledNotificationDoc>(),
  notificationDeliveryLog: holds<D.NotificationDeliveryLogDoc>(),
  events: holds<D.EventDoc>(),
  event_saves: holds<D.EventSaveDoc>(),
  client_installations: holds<D.ClientInstallationDoc>(),
  client_version_history: holds<D.ClientVersionChangeDoc>(),
  mobile_version_policies: holds<D.MobileVersionPolicyDoc>(),
  analytics_events: holds<D.AnalyticsEventDoc>(),
  analytics_quarantine: holds<D.AnalyticsQuarantineDoc>(),
  experiments: holds<D.ExperimentDoc>(),
  experiment_exposures: holds<D.ExperimentExposureDoc>(),
  usage_events: holds<D.StoredDoc>(),
  payment_events: holds<D.PaymentEventDoc>(),
  eventSources: holds<D.EventSourceDoc>(),
  eventSourceRecords: holds<D.EventSourceRecordDoc>(),
  eventSubscriptions: holds<D.EventSubscriptionDoc>(),
  eventSaves: holds<D.StoredDoc>(),
  eventChangeLog: holds<D.EventChangeLogDoc>(),
  eventNotificationJobs: holds<D.EventNotificationJobDoc>(),
  organizers: holds<D.OrganizerDoc>(),
  spot_tombstones: holds<D.SpotTombstoneDoc>(),
  user_blocks: holds<D.UserBlockDoc>(),
  reports: holds<D.ReportDoc>(),
  ingestion_runs: holds<D.IngestionRunDoc>(),
  mobile_version_policy_history: holds<D.MobileVersionPolicyChangeDoc>(),
  eventRelationships: holds<D.EventRelationshipDoc>(),
  migration_checkpoints: holds<D.MigrationCheckpointDoc>(),
  sessions: holds<D.SessionDoc>(),
  legacy_token_usage: holds<D.LegacyTokenUsageDoc>(),
  credit_accounts: holds<D.CreditAccountDoc>(),
  credit_ledger: holds<D.CreditLedgerDoc>(),
  usage_reconciliations: holds<D.StoredDoc>(),
};

export type CollectionDocuments = typeof COLLECTIONS;
export type CollectionName = keyof CollectionDocuments;
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];
