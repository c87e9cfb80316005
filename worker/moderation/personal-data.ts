import { anyIdOf } from '../platform/db/id-match';
import type { Cleanup } from '../platform/db/personal-data';

/**
 * What deleting an account does to the moderation log: the actions stay (the log is append-only), without the
 * rider they were about and without the admin who took them. A test scans all collections after a deletion.
 */
export const MODERATION_PERSONAL_DATA: Cleanup[] = [
  {
    collection: 'moderator_actions',
    detach: (userId) => ({ filter: { subjectId: anyIdOf(userId) }, update: { $unset: { subjectId: '' } } }),
  },
  {
    collection: 'moderator_actions',
    detach: (userId) => ({ filter: { actorId: anyIdOf(userId) }, update: { $unset: { actorId: '' } } }),
  },
];
