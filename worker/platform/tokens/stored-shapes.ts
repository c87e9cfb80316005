import type { StoredShapes } from '../db/stored-shapes';
import type { TOKEN_COLLECTIONS } from './collections';

/** What the token checks store (worker/platform/db/stored-shapes.ts): what `npm run db:doctor` checks. */
export const TOKEN_STORED_SHAPES: StoredShapes<typeof TOKEN_COLLECTIONS> = {
  legacy_token_usage: { requests: 'number' },
};
