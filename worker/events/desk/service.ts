import type { Filter, ObjectId, UpdateFilter } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { PUBLISHED, STALE_AFTER_MS } from '../catalog/vocabulary';
import type { EventDoc } from '../documents';

// Every query of the admin desk but merging (worker/events/desk/merge.ts).

const verifiedAt = (now: Date) => ({
  'freshness.lastVerifiedAt': now,
  'freshness.staleAfter': new Date(now.getTime() + STALE_AFTER_MS),
});

/** A page of events in one approval status (not merged away), oldest first: the review queue is first come, first served. */
export function listByApproval(
  store: Store,
  page: { approvalStatus: 'pending' | 'approved' | 'rejected'; limit: number; cursor?: ObjectId },
) {
  return store.events
    .find({
      approvalStatus: page.approvalStatus,
      mergedInto: { $exists: false },
      ...(page.cursor ? { _id: { $gt: page.cursor } } : {}),
    })
    .sort({ _id: 1 })
    .limit(page.limit + 1)
    .toArray();
}

/**
 * A page of events holding possible duplicates (not rejected or merged away), oldest first, with
 * the candidates still standing: one read for the page and one for its candidates.
 */
export async function listDuplicates(store: Store, page: { limit: number; cursor?: ObjectId }) {
  const rows = await store.events
    .find({
      'possibleDuplicateOf.0': { $exists: true },
      approvalStatus: { $ne: 'rejected' },
      ...(page.cursor ? { _id: { $gt: page.cursor } } : {}),
    })
    .sort({ _id: 1 })
    .limit(page.limit + 1)
    .toArray();
  const ids = rows.flatMap((row) => row.possibleDuplicateOf ?? []);
  const candidates = ids.length
    ? await store.events.find({ _id: { $in: ids }, mergedInto: { $exists: false } }).toArray()
    : [];
  const byId = new Map(candidates.map((event) => [event._id.toHexString(), event]));
  return rows.map((event) => ({
    event,
    candidates: (event.possibleDuplicateOf ?? []).flatMap((id) => byId.get(id.toHexString()) ?? []),
  }));
}

/** Published, still-scheduled events past freshness.staleAfter, longest overdue first, and how many there are. */
export async function listStale(store: Store, limit: number, now: Date) {
  const filter: Filter<EventDoc> = { ...PUBLISHED, status: { $ne: 'completed' }, 'freshness.staleAfter': { $lt: now } };
  const [items, total] = await Promise.all([
    store.events.find(filter).sort({ 'freshness.staleAfter': 1, _id: 1 }).limit(limit).toArray(),
    store.events.countDocuments(filter),
  ]);
  return { items, total };
}

export type ReviewOutcome =
  | { outcome: 'changed'; event: EventDoc; published: boolean }
  | { outcome: 'unchanged'; event: EventDoc }
  | { outcome: 'not-found' }
  | { outcome: 'merged-away'; into: ObjectId };

/**
 * Approve (publish) or reject, as one conditional update: only a change of status writes, so two
 * admins approving at once publish (and notify) once. Approving also counts as verifying.
 */
export async function reviewEvent(
  store: Store,
  id: ObjectId,
  decision: { decision: 'approve' | 'reject'; reason?: string; by: ObjectId },
  now: Date,
): Promise<ReviewOutcome> {
  const approve = decision.decision === 'approve';
  // Live records without approvalStatus are published already: rejecting them applies, approving them does nothing.
  const from = approve
    ? { approvalStatus: { $in: ['pending', 'rejected'] } }
    : { approvalStatus: { $in: ['pending', 'approved', null] } };
  const review = { decision: decision.decision, reason: decision.reason ?? null, by: decision.by, at: now };
  const changed = await store.events.findOneAndUpdate(
    { _id: id, mergedInto: { $exists: false }, ...from } as Filter<EventDoc>,
    {
      $set: {
        approvalStatus: approve ? 'approved' : 'rejected',
        review,
        updatedAt: now,
        ...(approve ? verifiedAt(now) : {}),
      },
    },
    { returnDocument: 'after' },
  );
  if (changed) return { outcome: 'changed', event: changed, published: approve };
  const event = await store.events.findOne({ _id: id });
  if (!event) return { outcome: 'not-found' };
  if (event.mergedInto) return { outcome: 'merged-away', into: event.mergedInto };
  return { outcome: 'unchanged', event };
}

/** The event confirmed as it stands: freshness restarts (off the stale list). */
export function verifyEvent(store: Store, id: ObjectId, now: Date) {
  return store.events.findOneAndUpdate(
    { _id: id, mergedInto: { $exists: false } },
    { $set: { ...verifiedAt(now), updatedAt: now } },
    { returnDocument: 'after' },
  );
}

/** Not a duplicate after all: the reviewer clears the candidates. */
export function clearPossibleDuplicates(store: Store, id: ObjectId, now: Date) {
  return store.events.findOneAndUpdate(
    { _id: id, mergedInto: { $exists: false } },
    { $set: { possibleDuplicateOf: [], updatedAt: now } },
    { returnDocument: 'after' },
  );
}

export function findDeskEvent(store: Store, id: ObjectId) {
  return store.events.findOne({ _id: id });
}

/**
 * Applies an edit only if the event is still what was read (its updatedAt), so the before and
 * after handed to the change history are exactly this edit's; null when it moved meanwhile.
 */
export function applyEdit(store: Store, before: EventDoc, set: Record<string, unknown>, now: Date) {
  const update: UpdateFilter<EventDoc> = { $set: { ...set, ...verifiedAt(now), updatedAt: now } };
  return store.events.findOneAndUpdate(
    { _id: before._id, updatedAt: before.updatedAt ?? null } as Filter<EventDoc>,
    update,
    {
      returnDocument: 'after',
    },
  );
}

export const sourceRows = (store: Store) => store.eventSources.find({}).toArray();
