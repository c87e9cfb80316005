import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import type { GROWTH_COLLECTIONS } from './collections';

/** What growth stores, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const GROWTH_STORED_SHAPES: StoredShapes<typeof GROWTH_COLLECTIONS> = {
  analytics_events: { _id: 'id', occurredAt: 'date', receivedAt: 'date', userId: 'id', schemaVersion: 'number' },
  analytics_quarantine: { _id: 'id', receivedAt: 'date', userId: 'id' },
  experiments: { ...STAMPED, startedAt: 'date', stoppedAt: 'date', 'variants.$.weight': 'number' },
  experiment_exposures: { ...STAMPED, userId: 'id', firstExposedAt: 'date', adoptedBy: 'id' },
  client_installations: {
    ...STAMPED,
    userId: 'id',
    buildNumber: 'number',
    firstSeenAt: 'date',
    lastSeenAt: 'date',
    heartbeats: 'number',
  },
  client_version_history: {
    _id: 'id',
    installationRecordId: 'id',
    userId: 'id',
    toBuild: 'number',
    changedAt: 'date',
    createdAt: 'date',
  },
  mobile_version_policies: { ...STAMPED, policyRevision: 'number', effectiveAt: 'date', gracePeriodHours: 'number' },
  mobile_version_policy_history: { _id: 'id', policyRevision: 'number', actorId: 'id', changedAt: 'date' },
};
