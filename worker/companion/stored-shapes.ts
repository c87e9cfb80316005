import { STAMPED, type StoredShapes } from '../platform/db/stored-shapes';
import type { COMPANION_COLLECTIONS } from './collections';

/** What the companion stores, field by field (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const COMPANION_STORED_SHAPES: StoredShapes<typeof COMPANION_COLLECTIONS> = {
  bot_chats: { ...STAMPED, userId: 'id', text: 'text' },
  companion_profiles: {
    ...STAMPED,
    userId: 'id',
    interactionCount: 'number',
    facts: 'texts',
    sports: 'texts',
    lastTurnAt: 'date',
    sessionStartedAt: 'date',
    sessionStartedBy: 'id',
  },
};
