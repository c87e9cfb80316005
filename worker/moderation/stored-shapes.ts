import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import type { MODERATION_COLLECTIONS } from './collections';

/** What moderation stores, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const MODERATION_STORED_SHAPES: StoredShapes<typeof MODERATION_COLLECTIONS> = {
  moderator_actions: { ...STAMPED, actorId: 'id', subjectId: 'id', 'target.id': 'id' },
  moderation_terms: { ...STAMPED, term: 'text', kind: 'text', match: 'text' },
};
