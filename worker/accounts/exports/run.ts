import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { describeError, logEvent } from '../../platform/ops/log-line';
import {
  type Claimed,
  claimExport,
  failInterrupted,
  markBuildFailed,
  markReady,
  orphaned,
  stillWanted,
} from './builds';
import { expireExports } from './cleanup';

/** Writes the rider's ZIP to the bucket under `key`; 'withdrawn' (nothing written) once `stillWanted` answers false. */
export type WriteArchive = (
  store: Store,
  bucket: R2Bucket,
  riderId: ObjectId,
  key: string,
  options: { stillWanted: () => Promise<boolean>; now?: Date },
) => Promise<{ bytes: number } | 'withdrawn'>;

/**
 * What the run needs from elsewhere, handed in where the schedules are composed: the archive writer, and the push
 * telling the rider the file is ready (notifications, which accounts may not import).
 */
export interface ExportRunDeps {
  writeArchive: WriteArchive;
  notifyReady(store: Store, env: Env, riderId: ObjectId, exportId: ObjectId): Promise<unknown>;
}

export interface ExportRunSummary {
  expired: number;
  interrupted: number;
  built: number;
  withdrawn: number;
  retrying: number;
  /** Builds that failed this run, retried or not: the run's cron line is `partial` when any did. */
  failed: number;
}

/**
 * The data exports' background run (worker/schedules.ts): deletes expired files, fails builds that died on their
 * last attempt, then claims and builds due exports one after another, LIMITS.dataExports.buildsPerRun at most.
 */
export async function runDataExports(
  store: Store,
  env: Env,
  deps: ExportRunDeps,
  now = new Date(),
): Promise<ExportRunSummary> {
  const summary: ExportRunSummary = {
    expired: await expireExports(store, env.MEDIA, now),
    interrupted: await failInterrupted(store, now),
    built: 0,
    withdrawn: 0,
    retrying: 0,
    failed: 0,
  };
  for (let i = 0; i < LIMITS.dataExports.buildsPerRun; i++) {
    const claim = await claimExport(store, now);
    if (!claim) break;
    const outcome = await build(store, env, deps, claim, now);
    if (outcome === 'retry') summary.retrying += 1;
    summary[outcome === 'retry' ? 'failed' : outcome] += 1;
  }
  return summary;
}

async function build(
  store: Store,
  env: Env,
  deps: ExportRunDeps,
  claim: Claimed,
  now: Date,
): Promise<'built' | 'withdrawn' | 'retry' | 'failed'> {
  const { _id: exportId, riderId, key } = claim.export;
  if (!key) return markBuildFailed(store, claim, now);
  let written: { bytes: number } | 'withdrawn';
  try {
    written = await deps.writeArchive(store, env.MEDIA, riderId, key, {
      stillWanted: () => stillWanted(store, claim),
      now,
    });
  } catch (err) {
    const next = await markBuildFailed(store, claim, now);
    logEvent('accounts.export.build-failed', {
      exportId: exportId.toHexString(),
      attempt: claim.export.attempts,
      next,
      error: describeError(err),
    });
    return next;
  }
  if (written === 'withdrawn') return 'withdrawn';
  if (!(await markReady(store, claim, written.bytes, now))) {
    // The account or the export went while the last part was written: the file must not outlive them. A build
    // that only lost its lease leaves the file to the build holding the export now (same key).
    if (await orphaned(store, claim)) await env.MEDIA.delete(key);
    return 'withdrawn';
  }
  try {
    await deps.notifyReady(store, env, riderId, exportId);
  } catch (err) {
    logEvent('accounts.export.push-failed', { exportId: exportId.toHexString(), error: describeError(err) });
  }
  return 'built';
}
