import { type AnyBulkWriteOperation, MongoBulkWriteError, type ObjectId } from 'mongodb';
import { incrementCounters } from '../../platform/db/counter-update';
import type { Store } from '../../platform/db/store';
import type { EventDoc, EventRelationshipDoc, EventSaveDoc } from '../documents';
import { combinedSourceRefs } from './merge-rule';

// Merging a duplicate into the surviving event (migrations-notes/events-target-model.md,
// "Merging"). The merged-away document stays, as approvalStatus rejected with mergedInto, so
// its id and slug (and its dedupe key, for ingestion) keep resolving to the survivor. Every step
// is idempotent, so repeating a merge that stopped half-way finishes it.

export type MergeOutcome =
  | { outcome: 'merged'; event: EventDoc; moved: { sourceRefs: number; saves: number; relationships: number } }
  | { outcome: 'not-found' | 'same' | 'into-merged' | 'already-merged' };

const CAS_ATTEMPTS = 5;

/** Upserts that lost to an existing row on a unique index are fine (the row is already there); anything else is not. */
async function upsertAll(
  run: () => Promise<{ upsertedIds: Record<number, unknown> }>,
): Promise<Record<number, unknown>> {
  try {
    return (await run()).upsertedIds;
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors = Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors];
    if (errors.some((e) => e.code !== 11000)) throw err;
    return err.result.upsertedIds as Record<number, unknown>;
  }
}

/** The merged event's listings join the survivor's: a compare-and-set on the survivor's list, retried if ingestion moved it. */
async function moveSourceRefs(store: Store, from: EventDoc, intoId: ObjectId): Promise<number> {
  if (!from.sourceRefs?.length) return 0;
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
    const into = await store.events.findOne({ _id: intoId }, { projection: { sourceRefs: 1 } });
    if (!into) return 0;
    const current = into.sourceRefs;
    const combined = combinedSourceRefs(current ?? [], from.sourceRefs);
    const added = combined.length - (current?.length ?? 0);
    if (!added) return 0;
    const unchanged = current === undefined ? { $exists: false as const } : current;
    const { matchedCount } = await store.events.updateOne(
      { _id: intoId, sourceRefs: unchanged },
      { $set: { sourceRefs: combined } },
    );
    if (matchedCount) return added;
  }
  throw new Error(`the survivor's sourceRefs kept changing; merge again to finish`);
}

/**
 * Saves (event_saves, string ids) move with an upsert on the unique (userId, eventId) index, so a
 * rider who saved both keeps one; then exactly the rows read go.
 */
async function moveSaves(store: Store, fromId: ObjectId, intoId: ObjectId): Promise<number> {
  const [from, into] = [fromId.toHexString(), intoId.toHexString()];
  const rows = await store.event_saves.find({ eventId: from }).toArray();
  if (!rows.length) return 0;
  const ops: AnyBulkWriteOperation<EventSaveDoc>[] = rows.map((row) => ({
    updateOne: {
      filter: { userId: row.userId, eventId: into },
      update: { $setOnInsert: { userId: row.userId, eventId: into, createdAt: row.createdAt } },
      upsert: true,
    },
  }));
  const inserted = await upsertAll(() => store.event_saves.bulkWrite(ops, { ordered: false }));
  await store.event_saves.deleteMany({ _id: { $in: rows.map((row) => row._id) } });
  return Object.keys(inserted).length;
}

/**
 * Relationships move the same way (the survivor's relationship of a rider wins); the survivor's
 * relationshipCounts go up by exactly the rows inserted ($inc, as every relationship change
 * moves them), so concurrent changes on the survivor stay exact.
 */
async function moveRelationships(store: Store, fromId: ObjectId, intoId: ObjectId): Promise<number> {
  const rows = await store.eventRelationships.find({ eventId: fromId }).toArray();
  if (!rows.length) return 0;
  const ops: AnyBulkWriteOperation<EventRelationshipDoc>[] = rows.map((row) => ({
    updateOne: {
      filter: { userId: row.userId, eventId: intoId },
      update: {
        $setOnInsert: {
          userId: row.userId,
          eventId: intoId,
          relationship: row.relationship,
          createdAt: row.createdAt,
          updatedAt: row.updatedAt,
        },
      },
      upsert: true,
    },
  }));
  const inserted = await upsertAll(() => store.eventRelationships.bulkWrite(ops, { ordered: false }));
  const inc: Record<string, number> = {};
  for (const index of Object.keys(inserted)) {
    const name = `relationshipCounts.${rows[Number(index)]!.relationship}`;
    inc[name] = (inc[name] ?? 0) + 1;
  }
  if (Object.keys(inc).length) await store.events.updateOne({ _id: intoId }, incrementCounters(inc));
  const { deletedCount } = await store.eventRelationships.deleteMany({ _id: { $in: rows.map((row) => row._id) } });
  // The merged-away event's counts go with its rows (it is no longer shown anywhere).
  if (deletedCount) await store.events.updateOne({ _id: fromId }, { $set: { relationshipCounts: {} } });
  return Object.keys(inserted).length;
}

/** Merges event `fromId` into `intoId` (the survivor), as the admin `by`. */
export async function mergeEvent(
  store: Store,
  fromId: ObjectId,
  intoId: ObjectId,
  by: ObjectId,
): Promise<MergeOutcome> {
  if (fromId.equals(intoId)) return { outcome: 'same' };
  const [from, into] = await Promise.all([
    store.events.findOne({ _id: fromId }),
    store.events.findOne({ _id: intoId }),
  ]);
  if (!from || !into) return { outcome: 'not-found' };
  if (into.mergedInto) return { outcome: 'into-merged' };
  if (from.mergedInto && !from.mergedInto.equals(intoId)) return { outcome: 'already-merged' };
  const now = new Date();
  // First out of public view (so no new save or relationship lands on it), conditional so two merges cannot both win.
  const marked = await store.events.updateOne(
    { _id: fromId, $or: [{ mergedInto: { $exists: false } }, { mergedInto: intoId }] },
    {
      $set: {
        mergedInto: intoId,
        mergedAt: now,
        mergedBy: by,
        approvalStatus: 'rejected',
        possibleDuplicateOf: [],
        updatedAt: now,
      },
    },
  );
  if (!marked.matchedCount) return { outcome: 'already-merged' };
  // Chains stay one hop: whatever was merged into the merged-away event now points at the survivor.
  await store.events.updateMany({ mergedInto: fromId }, { $set: { mergedInto: intoId } });
  await store.events.updateMany({ possibleDuplicateOf: fromId }, { $pull: { possibleDuplicateOf: fromId } });
  const moved = {
    sourceRefs: await moveSourceRefs(store, from, intoId),
    saves: await moveSaves(store, fromId, intoId),
    relationships: await moveRelationships(store, fromId, intoId),
  };
  const event = await store.events.findOne({ _id: intoId });
  return event ? { outcome: 'merged', event, moved } : { outcome: 'not-found' };
}
