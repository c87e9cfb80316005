import { positiveIntSetting } from '../config';
import { isDuplicateKey } from '../db/errors';
import type { Store } from '../db/store';
import type { Env } from '../env';
import { LIMITS } from '../limits';
import { describeError, logEvent } from '../ops/log-line';
import { LegacyUsageBatch } from './legacy-usage-batch';
import type { VerifiedToken } from './token';

/** What an access check hands over: the request's store and after-response queue, its settings and its context. */
export interface UsageSink {
  var: { db?: Store; inBackground?: (task: () => Promise<void>) => void };
  env: Env;
  executionCtx: { waitUntil(promise: Promise<unknown>): void };
}

type OpenBatch = { counts: LegacyUsageBatch; written: Promise<void>; settle: () => void; closed: boolean };

/** The batch each database is filling in this isolate (tests share one isolate across databases). */
const openBatches = new Map<string, OpenBatch>();

/**
 * Counts one request presenting a legacy token (no session) on today's UTC row of `legacy_token_usage`, so the
 * team can tell when legacy tokens could be retired (docs/sessions.md), without a write per request: the
 * isolate's requests join one batch, written with one `$inc` per day when LIMITS.sessions.legacyUsageFlushEvery
 * requests joined or LEGACY_USAGE_FLUSH_MS after its first. Every counted request keeps its own waitUntil until the
 * batch holding it is written, and the write runs in a request's waitUntil, so an evicted isolate loses nothing;
 * only an isolate killed outright (a crash, or past the runtime's waitUntil grace, far beyond the window) loses
 * its open batch, at most one window's requests, as a failed write does: a retirement figure read over days
 * tolerates that, and a write per request (a second round trip on every legacy request) would not be worth it.
 */
export function countLegacyToken(verified: VerifiedToken, sink: UsageSink): void {
  const { db, inBackground } = sink.var;
  if (verified.sessionId || !db || !inBackground) return;
  const key = `${sink.env.MONGODB_URI ?? ''}\n${sink.env.MONGODB_DB ?? ''}`;
  let batch = openBatches.get(key);
  if (!batch) {
    const opened = openBatch();
    openBatches.set(key, opened);
    const windowMs = positiveIntSetting(sink.env, 'LEGACY_USAGE_FLUSH_MS', LIMITS.sessions.legacyUsageFlushMs);
    // The first request holds its connection for the window and writes the batch, unless a full batch was written first.
    inBackground(() => sleep(windowMs).then(() => writeBatch(key, opened, db)));
    batch = opened;
  }
  if (batch.counts.add(new Date().toISOString().slice(0, 10)) >= LIMITS.sessions.legacyUsageFlushEvery) {
    const full = batch;
    inBackground(() => writeBatch(key, full, db));
  } else {
    sink.executionCtx.waitUntil(batch.written);
  }
}

function openBatch(): OpenBatch {
  let settle = () => {};
  const written = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { counts: new LegacyUsageBatch(), written, settle, closed: false };
}

/** Closes the batch (the next request opens another) and stores it; a batch already closed is left to its writer. */
async function writeBatch(key: string, batch: OpenBatch, db: Store): Promise<void> {
  if (batch.closed) return;
  batch.closed = true;
  if (openBatches.get(key) === batch) openBatches.delete(key);
  const increments = batch.counts.increments();
  try {
    await Promise.all(increments.map(({ day, requests }) => incrementDay(db, day, requests)));
  } catch (error) {
    logEvent('tokens.legacy-usage.failed', {
      days: increments.length,
      requests: increments.reduce((sum, { requests }) => sum + requests, 0),
      error: describeError(error),
    });
  } finally {
    batch.settle();
  }
}

async function incrementDay(db: Store, day: string, requests: number): Promise<void> {
  const increment = () =>
    db.legacy_token_usage.updateOne({ _id: day }, { $inc: { requests } }, { upsert: true }).then(() => undefined);
  // Two isolates creating the day's row at once: the unique _id refuses one upsert; the row exists now, so retry once.
  await increment().catch((error: unknown) => (isDuplicateKey(error) ? increment() : Promise.reject(error)));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
