import { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { readOne } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { DataExportDoc } from '../documents';
import { readExport } from './read-export';
import { afterFailedBuild } from './retries';

// The background run's queries on data_exports: claiming one export to build under a lease, and settling it
// while the lease is still that build's, so a build that lost its lease (or its export) writes nothing.

const DAY_MS = 24 * 60 * 60 * 1000;

/** An export claimed by one build: the build's lease id and the export as claimed. */
export interface Claimed {
  leaseId: string;
  export: DataExportDoc;
}

/**
 * Claims the export due longest ago in one atomic write, so two runs never build the same one: a queued one
 * whose attempt is due, or one still `building` whose lease ran out (its build died) and that has attempts left.
 */
export async function claimExport(store: Store, now: Date): Promise<Claimed | undefined> {
  const leaseId = new ObjectId().toHexString();
  const claimed = await store.data_exports.findOneAndUpdate(
    {
      $or: [
        { state: 'queued', dueAt: { $lte: now } },
        { state: 'building', dueAt: { $lte: now }, attempts: { $lt: LIMITS.dataExports.attempts } },
      ],
    },
    {
      $set: {
        state: 'building',
        leaseId,
        dueAt: new Date(now.getTime() + LIMITS.dataExports.leaseMinutes * 60_000),
        updatedAt: now,
      },
      $inc: { attempts: 1 },
    },
    { sort: { dueAt: 1 }, returnDocument: 'after' },
  );
  const read = readOne('data_exports', claimed, readExport);
  // A claimed export that cannot be read is failed at once, so it is never claimed again.
  if (claimed && !read) await settle(store, { leaseId, _id: claimed._id }, failed('build-failed', now));
  return read && { leaseId, export: read };
}

/**
 * Builds that died with no attempt left (their lease ran out on the last one) become `failed`: no run will
 * claim them again, and the rider reads why.
 */
export async function failInterrupted(store: Store, now: Date): Promise<number> {
  const { modifiedCount } = await store.data_exports.updateMany(
    { state: 'building', dueAt: { $lte: now }, attempts: { $gte: LIMITS.dataExports.attempts } },
    { $set: failed('build-interrupted', now) },
  );
  return modifiedCount;
}

/** Whether the build holding `leaseId` should go on: the export is still its, and its rider's account is there. */
export async function stillWanted(store: Store, claim: Claimed): Promise<boolean> {
  const [held, account] = await Promise.all([
    store.data_exports.countDocuments(
      { _id: claim.export._id, leaseId: claim.leaseId, state: 'building' },
      { limit: 1 },
    ),
    store.users.countDocuments({ _id: claim.export.riderId }, { limit: 1 }),
  ]);
  return held > 0 && account > 0;
}

/** Whether the claimed export or its rider's account is gone: a file written for it must go too. */
export async function orphaned(store: Store, claim: Claimed): Promise<boolean> {
  const [exported, account] = await Promise.all([
    store.data_exports.countDocuments({ _id: claim.export._id }, { limit: 1 }),
    store.users.countDocuments({ _id: claim.export.riderId }, { limit: 1 }),
  ]);
  return exported === 0 || account === 0;
}

/** Marks the export ready with its file's size; false when the build no longer holds it (its file must go). */
export function markReady(store: Store, claim: Claimed, bytes: number, now: Date): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + LIMITS.dataExports.keepDays * DAY_MS);
  return settle(
    store,
    { leaseId: claim.leaseId, _id: claim.export._id },
    {
      state: 'ready',
      bytes,
      readyAt: now,
      expiresAt,
      dueAt: expiresAt,
      leaseId: null,
      updatedAt: now,
    },
  );
}

/** After a failed build: queued again after its backoff, or `failed` once its attempts are spent. */
export async function markBuildFailed(store: Store, claim: Claimed, now: Date): Promise<'retry' | 'failed'> {
  const next = afterFailedBuild(claim.export.attempts, now);
  const write =
    next === 'give-up'
      ? failed('build-failed', now)
      : { state: 'queued' as const, dueAt: next.retryAt, leaseId: null, updatedAt: now };
  await settle(store, { leaseId: claim.leaseId, _id: claim.export._id }, write);
  return next === 'give-up' ? 'failed' : 'retry';
}

const failed = (failure: NonNullable<DataExportDoc['failure']>, now: Date) => ({
  state: 'failed' as const,
  failure,
  leaseId: null,
  updatedAt: now,
});

async function settle(
  store: Store,
  { leaseId, _id }: { leaseId: string; _id: ObjectId },
  write: Partial<DataExportDoc>,
): Promise<boolean> {
  const { modifiedCount } = await store.data_exports.updateOne({ _id, leaseId, state: 'building' }, { $set: write });
  return modifiedCount === 1;
}
