import type { Cleanup } from '../platform/db/personal-data';

/**
 * What deleting an account does to the growth collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const GROWTH_PERSONAL_DATA: Cleanup[] = [
  { collection: 'analytics_events', remove: (userId) => ({ userId }) },
  { collection: 'analytics_quarantine', remove: (userId) => ({ userId }) },
  // The rider's exposures, and the installations' exposures the rider adopted at sign-in (they counted as the rider).
  { collection: 'experiment_exposures', remove: (userId) => ({ $or: [{ userId }, { adoptedBy: userId }] }) },
  // Client installations and their version changes (worker/growth/client-heartbeat/) are the rider's device records.
  { collection: 'client_installations', remove: (userId) => ({ userId }) },
  { collection: 'client_version_history', remove: (userId) => ({ userId }) },
  // The version-policy audit trail stays (worker/growth/version-policy/), without the admin who made the change.
  {
    collection: 'mobile_version_policy_history',
    detach: (userId) => ({ filter: { actorId: userId }, update: { $unset: { actorId: '' } } }),
  },
];
