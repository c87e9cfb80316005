import type { IndexDeclaration } from '../platform/db/indexes';

/** The indexes growth relies on, each with its reason (printed into migrations-notes/indexes.md). */
export const GROWTH_INDEXES: IndexDeclaration[] = [
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
];
