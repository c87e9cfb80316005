import { anyIdOf } from '../platform/db/id-match';
import type { Cleanup } from '../platform/db/personal-data';
import { readString } from '../platform/db/stored-values';

/**
 * What deleting an account does to the accounts collections. Every collection that can hold something of a
 * rider's has its rule here; a test scans all collections after a deletion and fails on anything that
 * still names the rider.
 */
export const ACCOUNTS_PERSONAL_DATA: Cleanup[] = [
  { collection: 'sessions', remove: (userId) => ({ userId }) },
  // A suspension an admin set outlives their account; it stops naming them.
  {
    collection: 'users',
    detach: (userId) => ({ filter: { 'suspension.by': anyIdOf(userId) }, update: { $unset: { 'suspension.by': '' } } }),
  },
  // Each export's file goes with it: a build still running finds its document gone and keeps no file.
  {
    collection: 'data_exports',
    removeEach: (userId) => ({ riderId: userId }),
    followUps: (removed) => {
      const key = readString(removed.key);
      return key ? [{ object: { key } }] : [];
    },
  },
];
