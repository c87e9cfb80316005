import { ObjectId } from 'mongodb';
import type { DueQueue, SettlementWrite } from '../../platform/db/claimed-batches';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { logEvent } from '../../platform/ops/log-line';
import { recordModerationCheck } from '../../platform/ops/metrics';
import type { CheckTarget, ContentCheckDoc } from '../documents';

// Content the moderation model could not check at write time (a timeout, a 5xx, no network): published, and a
// pending check row here, worked by the later-check run (./run.ts) on the claimed-batch queue
// (worker/platform/db/claimed-batches.ts).

/** Queues a later check of content the model did not answer for, counted and logged as deferred. */
export async function deferCheck(store: Store, env: Env, target: CheckTarget, error: string): Promise<void> {
  const now = new Date();
  await store.content_checks.insertOne({
    _id: new ObjectId(),
    target,
    status: 'pending',
    dueAt: now,
    attempts: 0,
    lastError: error,
    leaseId: null,
    // Due at the next run: the model was out a moment ago.
    leaseUntil: now,
    createdAt: now,
    updatedAt: now,
  });
  recordModerationCheck(env, { target: target.type, outcome: 'deferred' });
  logEvent('moderation.check.deferred', { targetType: target.type, targetId: target.id.toHexString(), error });
}

/** What one claimed check came to. */
export type Settlement =
  | { row: ContentCheckDoc; to: 'clear' | 'flagged' | 'gone' }
  | { row: ContentCheckDoc; to: 'retry' | 'abandoned'; error: string };

/** The delay before a check's next try: doubling from LIMITS.moderation.checkRetryMinutes up to the cap. */
export function retryDelayMinutes(attempts: number): number {
  const { checkRetryMinutes, checkRetryMaxMinutes } = LIMITS.moderation;
  return Math.min(checkRetryMaxMinutes, checkRetryMinutes * 2 ** Math.max(0, Math.min(attempts - 1, 10)));
}

/** Pending checks, soonest due first. */
export const checkQueue = (store: Store): DueQueue<ContentCheckDoc, Settlement> => ({
  rows: store.content_checks,
  dueField: 'dueAt',
  leaseMinutes: LIMITS.moderation.checkLeaseMinutes,
  batchRows: LIMITS.moderation.checkBatchRows,
  runMaxRows: LIMITS.moderation.checkRunMaxRows,
  write: settlementWrite,
});

function settlementWrite(s: Settlement, now: Date): SettlementWrite<ContentCheckDoc> {
  const attempts = s.row.attempts + 1;
  if (s.to === 'retry') {
    // Held back by its lease until then: claims take rows whose lease has run out.
    const leaseUntil = new Date(now.getTime() + retryDelayMinutes(attempts) * 60_000);
    return { $set: { attempts, lastError: s.error, leaseUntil } };
  }
  if (s.to === 'abandoned') return { $set: { status: 'abandoned', attempts, lastError: s.error } };
  return { $set: { status: s.to, attempts } };
}
