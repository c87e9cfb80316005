import type { Store } from '../db/store';
import type { VerifiedToken } from './token';

/** Where an access check may count a legacy token: the request's store and its after-response queue. */
export interface UsageSink {
  db?: Store;
  inBackground?: (task: () => Promise<void>) => void;
}

/**
 * Counts, after the response, one request presenting a legacy token (no session) on today's UTC
 * row of `legacy_token_usage`, so the team can tell when legacy tokens could be retired (docs/sessions.md).
 */
export function countLegacyToken(verified: VerifiedToken, sink: UsageSink): void {
  const { db, inBackground } = sink;
  if (verified.sessionId || !db || !inBackground) return;
  const day = new Date().toISOString().slice(0, 10);
  inBackground(() =>
    db.legacy_token_usage
      .updateOne({ _id: day }, { $inc: { requests: 1 } }, { upsert: true })
      .then(() => undefined)
      .catch((error: unknown) => console.error('legacy token usage not counted:', error)),
  );
}
