import type { CreateIndexesOptions, Db, IndexSpecification } from 'mongodb';
import { LIMITS } from '../limits';
import type { CollectionName } from './collections';

export interface IndexDeclaration {
  collection: CollectionName;
  key: IndexSpecification & Record<string, 1 | -1 | 'text' | '2dsphere'>;
  options: CreateIndexesOptions & { name: string };
  /** Why the index exists; printed into migrations-notes/indexes.md. */
  why: string;
}

/**
 * Every index the service relies on, in one list. `applyIndexes` creates them idempotently;
 * `npm run db:indexes` runs it against any MONGODB_URI, and the dev stack at start.
 * Keep migrations-notes/indexes.md in step (a test compares the two).
 */
export const INDEXES: IndexDeclaration[] = [
  {
    collection: 'users',
    key: { email: 1 },
    options: { name: 'email_unique', unique: true },
    why: 'sign-in lookup; one account per email',
  },
  {
    collection: 'users',
    key: { appleUserId: 1 },
    options: { name: 'appleUserId_unique', unique: true, sparse: true },
    why: 'returning Apple sign-ins carry only the subject',
  },
  { collection: 'users', key: { name: 1 }, options: { name: 'name' }, why: 'admin user search' },
  {
    collection: 'analytics_events',
    key: { eventId: 1 },
    options: { name: 'eventId_unique', unique: true },
    why: 'client retries are idempotent',
  },
  {
    collection: 'analytics_events',
    key: { name: 1, occurredAt: 1 },
    options: { name: 'name_occurredAt' },
    why: 'dashboard windows by event name',
  },
  {
    collection: 'analytics_events',
    key: { userId: 1, occurredAt: 1 },
    options: { name: 'userId_occurredAt' },
    why: 'per-rider activity and account deletion',
  },
  {
    collection: 'analytics_quarantine',
    key: { eventId: 1 },
    options: { name: 'eventId_unique', unique: true, sparse: true },
    why: 'a quarantined retry is stored once',
  },
  {
    collection: 'analytics_quarantine',
    key: { receivedAt: 1 },
    options: { name: 'receivedAt' },
    why: 'reviewing recent quarantined events',
  },
  {
    collection: 'analytics_quarantine',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: 'account deletion',
  },
  {
    collection: 'analytics_events',
    key: { platform: 1, receivedAt: 1 },
    options: { name: 'platform_receivedAt' },
    why: 'dashboard data quality: mobile events by received time',
  },
  { collection: 'users', key: { createdAt: 1 }, options: { name: 'createdAt' }, why: 'dashboard signup cohorts' },
  {
    collection: 'experiments',
    key: { key: 1 },
    options: { name: 'key_unique', unique: true },
    why: 'experiments are named by key; two racing creates make one',
  },
  {
    collection: 'experiment_exposures',
    key: { experimentKey: 1, userId: 1, installationId: 1 },
    options: { name: 'experimentKey_userId_installationId_unique', unique: true },
    why: 'one first exposure per unit (rider or installation) and experiment; results and assignment read by experiment',
  },
  {
    collection: 'experiment_exposures',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: 'account deletion',
  },
  {
    collection: 'experiment_exposures',
    key: { adoptedBy: 1 },
    options: { name: 'adoptedBy', sparse: true },
    why: 'account deletion: installations a rider adopted at sign-in',
  },

  {
    collection: 'events',
    key: { dedupeKey: 1 },
    options: { name: 'dedupeKey_unique', unique: true },
    why: 'ingestion upserts by dedupe key',
  },
  { collection: 'events', key: { slug: 1 }, options: { name: 'slug_unique', unique: true }, why: 'public event URLs' },
  { collection: 'events', key: { startAt: 1 }, options: { name: 'startAt' }, why: 'date-window queries' },
  { collection: 'events', key: { sports: 1 }, options: { name: 'sports' }, why: 'sport filter' },
  { collection: 'events', key: { status: 1 }, options: { name: 'status' }, why: 'status filter' },
  {
    collection: 'event_saves',
    key: { userId: 1, eventId: 1 },
    options: { name: 'userId_eventId_unique', unique: true },
    why: 'one save per user and event',
  },
  {
    collection: 'companion_profiles',
    key: { userId: 1 },
    options: { name: 'userId_unique', unique: true },
    why: 'one companion profile per user',
  },
  {
    collection: 'payment_events',
    key: { providerEventId: 1 },
    options: { name: 'providerEventId_unique', unique: true },
    why: 'each provider event is applied at most once',
  },
  {
    collection: 'spot_reviews',
    key: { spotId: 1, userId: 1 },
    options: { name: 'spotId_userId_unique', unique: true },
    why: 'one review per rider and spot',
  },
  {
    collection: 'spot_reviews',
    key: { spotId: 1, _id: -1 },
    options: { name: 'spotId_id' },
    why: "a spot's reviews newest first, and its rating summary",
  },
  { collection: 'spot_reviews', key: { userId: 1 }, options: { name: 'userId' }, why: 'account deletion' },
  {
    collection: 'spot_trick_history',
    key: { spotId: 1, _id: -1 },
    options: { name: 'spotId_id' },
    why: "a spot's landings newest first",
  },
  { collection: 'spot_trick_history', key: { userId: 1 }, options: { name: 'userId' }, why: 'account deletion' },
  {
    collection: 'tricklists',
    key: { userId: 1, _id: 1 },
    options: { name: 'userId__id' },
    why: "a rider's lists, newest first; owner-scoped lookups; account deletion",
  },
  {
    collection: 'tricks',
    key: { listId: 1, _id: 1 },
    options: { name: 'listId__id' },
    why: "a list's tricks, newest first; trick counts; list deletion",
  },
  { collection: 'tricks', key: { userId: 1 }, options: { name: 'userId' }, why: 'account deletion' },
  {
    collection: 'spots',
    key: { location: '2dsphere' },
    options: { name: 'location_2dsphere' },
    why: 'near search ($geoNear) by distance',
  },
  {
    collection: 'spots',
    key: { sports: 1, _id: -1 },
    options: { name: 'sports_id' },
    why: 'sport filter, newest first',
  },
  {
    collection: 'spots',
    key: { updatedAt: 1, _id: 1 },
    options: { name: 'updatedAt_id' },
    why: 'extension sync pages by (updatedAt, _id)',
  },
  {
    collection: 'spots',
    key: { createdBy: 1 },
    options: { name: 'createdBy' },
    why: 'account deletion detaches the creator',
  },
  {
    collection: 'spot_tombstones',
    key: { deletedAt: 1 },
    options: { name: 'deletedAt_ttl', expireAfterSeconds: LIMITS.spotTombstoneDays * 86400 },
    why: 'extension sync reads deletions in order; kept for LIMITS.spotTombstoneDays',
  },
  {
    collection: 'payment_events',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: "a rider's payment history and account deletion",
  },
  {
    collection: 'spotlists',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId_id' },
    why: "a rider's lists newest first, counting them, and account deletion",
  },
  // Stays are embedded in spots (interface spec), so their indexes are multikey indexes on spots.
  { collection: 'spots', key: { 'stays.city': 1 }, options: { name: 'stays_city' }, why: 'stay search by city' },
  {
    collection: 'spots',
    key: { 'stays.country': 1 },
    options: { name: 'stays_country' },
    why: 'stay search by country',
  },
  { collection: 'spots', key: { 'stays.type': 1 }, options: { name: 'stays_type' }, why: 'stay search by type' },
  {
    collection: 'spots',
    key: { 'stays.sourceConfidence': 1 },
    options: { name: 'stays_sourceConfidence' },
    why: 'every default stay list skips stays below 0.50',
  },
  {
    collection: 'spots',
    key: { 'stays.createdBy': 1 },
    options: { name: 'stays_createdBy' },
    why: "account deletion detaches a rider's stays",
  },
  {
    collection: 'categories',
    key: { slug: 1 },
    options: { name: 'slug_unique', unique: true },
    why: 'one category per slug; entries reference it; list order',
  },
  { collection: 'categories', key: { sport: 1, slug: 1 }, options: { name: 'sport_slug' }, why: 'sport filter' },
  {
    collection: 'trickipedia',
    key: { slug: 1 },
    options: { name: 'slug_unique', unique: true },
    why: 'one entry per slug; list order',
  },
  { collection: 'trickipedia', key: { sport: 1, slug: 1 }, options: { name: 'sport_slug' }, why: 'sport filter' },
  {
    collection: 'trickipedia',
    key: { category: 1, slug: 1 },
    options: { name: 'category_slug' },
    why: 'category filter',
  },
  { collection: 'blog', key: { slug: 1 }, options: { name: 'slug_unique', unique: true }, why: 'one post per slug' },
  {
    collection: 'blog',
    key: { status: 1, publishedAt: -1, _id: -1 },
    options: { name: 'status_publishedAt' },
    why: 'public list, newest published first',
  },
  {
    collection: 'blog',
    key: { status: 1, createdAt: -1, _id: -1 },
    options: { name: 'status_createdAt' },
    why: 'admin list of drafts',
  },
  {
    collection: 'blog',
    key: { tags: 1, publishedAt: -1 },
    options: { name: 'tags_publishedAt' },
    why: 'tag filter',
  },
  {
    collection: 'blog',
    key: { authorId: 1 },
    options: { name: 'authorId' },
    why: 'account deletion detaches the author',
  },
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
    collection: 'feed_posts',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: "account deletion removes a rider's posts",
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
    collection: 'ingestion_runs',
    key: { source: 1, status: 1, startedAt: -1 },
    options: { name: 'source_status_startedAt' },
    why: "each run reads its source's last successful run (the zero-events rule)",
  },
  {
    collection: 'dm_messages',
    key: { userId: 1, companion: 1, createdAt: -1, _id: -1 },
    options: { name: 'userId_companion_createdAt' },
    why: "the companion's memory: a rider's newest web DM turns; account deletion removes them",
  },
  {
    collection: 'bot_chats',
    key: { userId: 1, createdAt: -1, _id: -1 },
    options: { name: 'userId_createdAt' },
    why: "the companion's memory: a rider's newest chat turns; account deletion",
  },
  {
    collection: 'client_installations',
    key: { installationId: 1 },
    options: { name: 'installationId_unique', unique: true },
    why: 'one current record per installation; racing first heartbeats upsert one',
  },
  { collection: 'client_installations', key: { userId: 1 }, options: { name: 'userId' }, why: 'account deletion' },
  {
    collection: 'client_version_history',
    key: { installationRecordId: 1, heartbeat: 1 },
    options: { name: 'installationRecordId_heartbeat_unique', unique: true },
    why: "an installation record's version changes in order; at most one row per heartbeat",
  },
  { collection: 'client_version_history', key: { userId: 1 }, options: { name: 'userId' }, why: 'account deletion' },
  {
    collection: 'mobile_version_policies',
    key: { platform: 1 },
    options: { name: 'platform_unique', unique: true },
    why: 'one policy per mobile platform',
  },
  {
    collection: 'mobile_version_policy_history',
    key: { platform: 1, policyRevision: -1 },
    options: { name: 'platform_policyRevision' },
    why: "a platform's policy history, newest revision first",
  },
  {
    collection: 'mobile_version_policy_history',
    key: { actorId: 1 },
    options: { name: 'actorId' },
    why: 'account deletion detaches the admin',
  },
  {
    collection: 'pushTokens',
    key: { token: 1 },
    options: { name: 'token_unique', unique: true },
    why: 'upsert by token; a device address belongs to one account at a time',
  },
  {
    collection: 'pushTokens',
    key: { userId: 1, deadAt: 1 },
    options: { name: 'userId_deadAt' },
    why: "the sender reads users' live tokens; account deletion",
  },
  {
    collection: 'pushTokens',
    key: { deadAt: 1 },
    options: { name: 'deadAt_ttl', expireAfterSeconds: LIMITS.push.deadTokenRetentionSeconds },
    why: 'dead tokens are purged 30 days after deadAt (interface spec); live ones have deadAt null and stay',
  },
  {
    collection: 'notificationDeliveryLog',
    key: { receiptStatus: 1, sentAt: 1 },
    options: { name: 'receiptStatus_sentAt' },
    why: 'the receipts job reads pending tickets older than 30 minutes, oldest first',
  },
  {
    collection: 'notificationDeliveryLog',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: 'account deletion',
  },
  {
    collection: 'scheduledNotifications',
    key: { idempotencyKey: 1 },
    options: { name: 'idempotencyKey_unique', unique: true },
    why: 'a reminder slot is planned once (hash of user, list, trick and scheduledFor)',
  },
  {
    collection: 'scheduledNotifications',
    key: { status: 1, scheduledFor: 1 },
    options: { name: 'status_scheduledFor' },
    why: 'the reminder run claims due pending rows, soonest first',
  },
  {
    collection: 'scheduledNotifications',
    key: { userId: 1, status: 1, scheduledFor: 1 },
    options: { name: 'userId_status_scheduledFor' },
    why: "a rider's pending reminders for local scheduling; account deletion",
  },
  {
    collection: 'scheduledNotifications',
    key: { listId: 1, status: 1 },
    options: { name: 'listId_status' },
    why: "re-planning and auto-pause cancel a list's pending reminders",
  },
  {
    collection: 'tricklists',
    key: { reminderCadence: 1, lastOpenedAt: 1, createdAt: 1 },
    options: { name: 'reminderCadence_lastOpenedAt_createdAt' },
    why: 'the 60-day auto-pause finds lists with reminders on and no recent open',
  },
  {
    collection: 'events',
    key: { 'venue.location': '2dsphere' },
    options: { name: 'venue_location_2dsphere' },
    why: 'map pins, calendar by place, similar events by distance ($geoNear)',
  },
  {
    collection: 'events',
    key: { approvalStatus: 1, startAt: 1 },
    options: { name: 'approvalStatus_startAt' },
    why: 'the review queue and published events by date',
  },
  {
    collection: 'events',
    key: { schemaVersion: 1 },
    options: { name: 'schemaVersion' },
    why: 'map pins reach Live records not yet migrated; the migration counts what is left',
  },
  {
    collection: 'events',
    key: { approvalStatus: 1, _id: 1 },
    options: { name: 'approvalStatus__id' },
    why: 'the admin review queue: one approval status, oldest first',
  },
  {
    collection: 'events',
    key: { possibleDuplicateOf: 1 },
    options: { name: 'possibleDuplicateOf' },
    why: "the admin duplicates list; a merge takes the merged event off others' candidates",
  },
  {
    collection: 'events',
    key: { 'freshness.staleAfter': 1 },
    options: { name: 'freshness_staleAfter' },
    why: 'the admin stale list: published events past staleAfter',
  },
  {
    collection: 'events',
    key: { mergedInto: 1 },
    options: { name: 'mergedInto', sparse: true },
    why: 'a merge keeps chains one hop (what was merged into the merged event)',
  },
  {
    collection: 'events',
    key: { submittedBy: 1 },
    options: { name: 'submittedBy', sparse: true },
    why: 'account deletion detaches a rider from their submissions',
  },
  {
    collection: 'eventSourceRecords',
    key: { sourceId: 1, externalId: 1 },
    options: { name: 'sourceId_externalId_unique', unique: true },
    why: 'one raw record per source listing; an unchanged payloadHash skips the write',
  },
  {
    collection: 'organizers',
    key: { aliases: 1 },
    options: { name: 'aliases_unique', unique: true },
    why: 'ingestion maps an organizer name onto one canonical organizer',
  },
  {
    collection: 'eventRelationships',
    key: { userId: 1, eventId: 1 },
    options: { name: 'userId_eventId_unique', unique: true },
    why: 'one relationship per rider and event; account deletion',
  },
  {
    collection: 'eventRelationships',
    key: { userId: 1, relationship: 1, _id: -1 },
    options: { name: 'userId_relationship__id' },
    why: "a rider's events by relationship, newest first",
  },
  {
    collection: 'event_saves',
    key: { eventId: 1 },
    options: { name: 'eventId' },
    why: 'who saved an event: a change to it notifies them',
  },
  {
    collection: 'eventRelationships',
    key: { eventId: 1 },
    options: { name: 'eventId' },
    why: 'who holds a relationship to an event: a change to it notifies them',
  },
  {
    collection: 'eventChangeLog',
    key: { key: 1 },
    options: { name: 'key_unique', unique: true },
    why: 'one log row per changed field of one write (the change key plus the field), however often it is recorded',
  },
  {
    collection: 'eventChangeLog',
    key: { eventId: 1, at: -1 },
    options: { name: 'eventId_at' },
    why: "an event's change history, newest first",
  },
  {
    collection: 'eventChangeLog',
    key: { by: 1 },
    options: { name: 'by' },
    why: "deleting an admin's account detaches their id from the rows they caused",
  },
  {
    collection: 'eventSubscriptions',
    key: { matchKeys: 1 },
    options: { name: 'matchKeys' },
    why: 'matching one new event against every subscription: one $in over the keys it could be found by',
  },
  {
    collection: 'eventSubscriptions',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId__id' },
    why: "a rider's subscriptions, newest first; the per-rider limit; account deletion",
  },
  {
    collection: 'eventNotificationJobs',
    key: { jobKey: 1 },
    options: { name: 'jobKey_unique', unique: true },
    why: 'one job per rider per change, one open digest per subscription',
  },
  {
    collection: 'eventNotificationJobs',
    key: { status: 1, dueAt: 1 },
    options: { name: 'status_dueAt' },
    why: 'the notification run claims due pending jobs, soonest first',
  },
  {
    collection: 'eventNotificationJobs',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: 'account deletion',
  },
  {
    collection: 'sessions',
    key: { familyId: 1 },
    options: { name: 'familyId_unique', unique: true },
    why: 'a refresh token names its session by family id',
  },
  {
    collection: 'sessions',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId_id' },
    why: "a rider's sessions newest first; sign-out everywhere; account deletion",
  },
  {
    collection: 'sessions',
    key: { expiresAt: 1 },
    options: { name: 'expiresAt_ttl', expireAfterSeconds: 0 },
    why: 'a session unused for REFRESH_TOKEN_TTL_DAYS is removed',
  },
  {
    collection: 'credit_accounts',
    key: { userId: 1 },
    options: { name: 'userId_unique', unique: true },
    why: 'one credit account per rider; reservations and grants update it by userId',
  },
  {
    collection: 'credit_accounts',
    key: { 'holds.at': 1 },
    options: { name: 'holds_at' },
    why: 'the sweep finds reservations left by requests that died',
  },
  {
    collection: 'credit_ledger',
    key: { idempotencyKey: 1 },
    options: { name: 'idempotencyKey_unique', unique: true },
    why: 'each grant, purchase and reservation step is entered once however often it is retried',
  },
  {
    collection: 'credit_ledger',
    key: { userId: 1, _id: -1 },
    options: { name: 'userId_id' },
    why: "a rider's ledger newest first, and account deletion",
  },
  {
    collection: 'credit_ledger',
    key: { adminId: 1 },
    options: { name: 'adminId', sparse: true },
    why: 'account deletion detaches the admin from grants they made',
  },
  {
    collection: 'credit_ledger',
    key: { kind: 1, createdAt: 1 },
    options: { name: 'kind_createdAt' },
    why: "the daily usage reconciliation sums a day's settles",
  },
  {
    collection: 'usage_events',
    key: { callId: 1 },
    options: { name: 'callId_unique', unique: true },
    why: 'one usage row per AI call, however often its settle is retried',
  },
  {
    collection: 'usage_events',
    key: { userId: 1 },
    options: { name: 'userId' },
    why: "account deletion moves a rider's rows to the untraceable id",
  },
  {
    collection: 'usage_events',
    key: { at: 1 },
    options: { name: 'at' },
    why: "the daily usage reconciliation sums a day's rows",
  },
  {
    collection: 'usage_reconciliations',
    key: { day: 1 },
    options: { name: 'day_unique', unique: true },
    why: 'one reconciliation entry per UTC day',
  },
];

/** Creates every declared index; creating an existing identical index is a no-op. */
export async function applyIndexes(db: Db): Promise<number> {
  // One createIndexes command per collection, the collections side by side: a fresh database (each test
  // file's, a new deployment's) is ready after a few round trips instead of one per index.
  const byCollection = new Map<string, IndexDeclaration[]>();
  for (const index of INDEXES)
    byCollection.set(index.collection, [...(byCollection.get(index.collection) ?? []), index]);
  await Promise.all(
    [...byCollection].map(([collection, indexes]) =>
      db.collection(collection).createIndexes(indexes.map(({ key, options }) => ({ key, ...options }))),
    ),
  );
  return INDEXES.length;
}
