import type { Filter, ObjectId, UpdateFilter } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { readOne } from '../../platform/db/stored-values';
import { eventIdIs } from '../catalog/service';
import { PUBLISHED, STALE_AFTER_MS } from '../catalog/vocabulary';
import type { EventDoc } from '../documents';
import { readEvent, readEvents } from '../stored-event';

// Every query of the admin desk but merging (worker/events/desk/merge.ts). Each event found is read
// through readEvent; one found by its id matches it stored as an ObjectId or as its hex string.

const read = (doc: EventDoc | null) => readOne('events', doc, readEvent) ?? null;

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
  const events = readEvents(rows.slice(0, page.limit));
  const ids = events.flatMap((event) => event.possibleDuplicateOf ?? []);
  const candidates = ids.length
    ? readEvents(await store.events.find({ _id: { $in: ids }, mergedInto: { $exists: false } }).toArray())
    : [];
  const byId = new Map(candidates.map((event) => [event._id.toHexString(), event]));
  return {
    items: events.map((event) => ({
      event,
      candidates: (event.possibleDuplicateOf ?? []).flatMap((id) => byId.get(id.toHexString()) ?? []),
    })),
    last: rows.length > page.limit ? rows[page.limit - 1] : undefined,
  };
}

/** Published, still-scheduled events past freshness.staleAfter, longest overdue first, and how many there are. */
export async function listStale(store: Store, limit: number, now: Date) {
  const filter: Filter<EventDoc> = { ...PUBLISHED, status: { $ne: 'completed' }, 'freshness.staleAfter': { $lt: now } };
  const [items, total] = await Promise.all([
    store.events.find(filter).sort({ 'freshness.staleAfter': 1, _id: 1 }).limit(limit).toArray(),
    store.events.countDocuments(filter),
  ]);
  return { items: readEvents(items), total };
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
  const changed = read(
    await store.events.findOneAndUpdate(
      { ...eventIdIs(id), mergedInto: { $exists: false }, ...from } as Filter<EventDoc>,
      {
        $set: {
          approvalStatus: approve ? 'approved' : 'rejected',
          review,
          updatedAt: now,
          ...(approve ? verifiedAt(now) : {}),
        },
      },
      { returnDocument: 'after' },
    ),
  );
  if (changed) return { outcome: 'changed', event: changed, published: approve };
  const event = read(await store.events.findOne(eventIdIs(id)));
  if (!event) return { outcome: 'not-found' };
  if (event.mergedInto) return { outcome: 'merged-away', into: event.mergedInto };
  return { outcome: 'unchanged', event };
}

/** The event confirmed as it stands: freshness restarts (off the stale list). */
export async function verifyEvent(store: Store, id: ObjectId, now: Date) {
  return read(
    await store.events.findOneAndUpdate(
      { ...eventIdIs(id), mergedInto: { $exists: false } },
      { $set: { ...verifiedAt(now), updatedAt: now } },
      { returnDocument: 'after' },
    ),
  );
}

/** Not a duplicate after all: the reviewer clears the candidates. */
export async function clearPossibleDuplicates(store: Store, id: ObjectId, now: Date) {
  return read(
    await store.events.findOneAndUpdate(
      { ...eventIdIs(id), mergedInto: { $exists: false } },
      { $set: { possibleDuplicateOf: [], updatedAt: now } },
      { returnDocument: 'after' },
    ),
  );
}

/** The event as read, and its updatedAt exactly as stored: the edit writes only over that. */
export async function findDeskEvent(store: Store, id: ObjectId) {
  const stored = await store.events.findOne(eventIdIs(id));
  const event = read(stored);
  return event && { event, storedUpdatedAt: stored?.updatedAt ?? null };
}

/**
 * Applies an edit only if the event is still what was read (its updatedAt), so the before and
 * after handed to the change history are exactly this edit's; null when it moved meanwhile.
 */
export async function applyEdit(
  store: Store,
  before: { event: EventDoc; storedUpdatedAt: unknown },
  set: Record<string, unknown>,
  now: Date,
) {
  const update: UpdateFilter<EventDoc> = { $set: { ...set, ...verifiedAt(now), updatedAt: now } };
  return read(
    await store.events.findOneAndUpdate(
      { ...eventIdIs(before.event._id), updatedAt: before.storedUpdatedAt } as Filter<EventDoc>,
      update,
      { returnDocument: 'after' },
    ),
  );
}

export const sourceRows = (store: Store) => store.eventSources.find({}).toArray();
