import type { AnyBulkWriteOperation, Db, ObjectId } from 'mongodb';
import type { EventDoc, EventSaveDoc, MigrationCheckpointDoc } from '../documents';
import { toTargetShape } from './record-upgrade';
import { eventView } from './views';
import { EVENT_SCHEMA_VERSION } from './vocabulary';

// `npm run migrate:events` (scripts/migrate-events.ts): stored Live events → the target shape,
// in batches with a checkpoint, so it resumes where it stopped and a second run writes nothing.
// Roll-out and roll-back: migrations-notes/events-target-model.md.

export const MIGRATION_ID = 'events-target-v2';

export interface MigrationReport {
  migrated: number;
  skipped: number;
  batches: number;
  /** Database commands sent (finds, bulk writes, checkpoint writes): the bench's round trips. */
  roundTrips: number;
  savesFolded: number;
}

/** The target document plus `liveCompat` for any Live field its view would otherwise change. */
export function migratedDoc(doc: EventDoc): EventDoc {
  const target = toTargetShape(doc);
  const before = eventView(doc) as Record<string, unknown>;
  const after = eventView(target) as Record<string, unknown>;
  const compat: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify(after[field])) compat[field] = value;
  }
  return Object.keys(compat).length ? { ...target, liveCompat: compat } : target;
}

/**
 * One pass over the unmigrated events after the checkpoint. Each write is conditional on the
 * document being unchanged since it was read (updatedAt and no schemaVersion), so an ingestion
 * write in between wins and the document is picked up by the sweep.
 */
async function pass(db: Db, batchSize: number, report: MigrationReport, stopAfter?: number): Promise<boolean> {
  const events = db.collection<EventDoc>('events');
  const checkpoints = db.collection<MigrationCheckpointDoc>('migration_checkpoints');
  const saved = await checkpoints.findOne({ _id: MIGRATION_ID });
  report.roundTrips += 1;
  let lastId: ObjectId | null = saved?.lastId ?? null;
  for (;;) {
    if (stopAfter !== undefined && report.batches >= stopAfter) return false;
    const batch = await events
      .find({ schemaVersion: { $ne: EVENT_SCHEMA_VERSION }, ...(lastId ? { _id: { $gt: lastId } } : {}) })
      .sort({ _id: 1 })
      .limit(batchSize)
      .toArray();
    report.roundTrips += 1;
    if (!batch.length) return true;
    const ops: AnyBulkWriteOperation<EventDoc>[] = batch.map((doc) => ({
      replaceOne: {
        filter: { _id: doc._id, schemaVersion: { $ne: EVENT_SCHEMA_VERSION }, updatedAt: doc.updatedAt ?? null },
        replacement: migratedDoc(doc),
      },
    }));
    const { modifiedCount } = await events.bulkWrite(ops, { ordered: false });
    lastId = batch[batch.length - 1]!._id;
    await checkpoints.updateOne(
      { _id: MIGRATION_ID },
      { $set: { lastId, done: false, updatedAt: new Date() }, $inc: { migrated: modifiedCount } },
      { upsert: true },
    );
    report.roundTrips += 2;
    report.migrated += modifiedCount;
    report.skipped += batch.length - modifiedCount;
    report.batches += 1;
  }
}

/**
 * Saves a previous build may have written to the target name `eventSaves` move into the single
 * source of truth `event_saves` (upsert on its unique (userId, eventId) index, then delete): none
 * is lost, none doubled, however often this runs.
 */
async function foldTargetSaves(db: Db, report: MigrationReport): Promise<void> {
  const target = db.collection<EventSaveDoc>('eventSaves');
  const rows = await target.find({}).toArray();
  report.roundTrips += 1;
  if (!rows.length) return;
  const ops = rows.map((row) => {
    const key = { userId: String(row.userId), eventId: String(row.eventId) };
    return {
      updateOne: {
        filter: key,
        update: { $setOnInsert: { ...key, createdAt: row.createdAt ?? new Date() } },
        upsert: true,
      },
    };
  });
  await db.collection<EventSaveDoc>('event_saves').bulkWrite(ops, { ordered: false });
  await target.deleteMany({ _id: { $in: rows.map((row) => row._id) } });
  report.roundTrips += 2;
  report.savesFolded += rows.length;
}

/** Runs (or resumes) the migration; `stopAfter` batches simulates a run stopped half-way. */
export async function migrateEvents(db: Db, options: { batchSize?: number; stopAfter?: number } = {}) {
  const report: MigrationReport = { migrated: 0, skipped: 0, batches: 0, roundTrips: 0, savesFolded: 0 };
  const batchSize = options.batchSize ?? 500;
  const finished = await pass(db, batchSize, report, options.stopAfter);
  if (!finished) return { ...report, done: false };
  // The sweep: documents skipped because ingestion wrote them mid-run, from the start again.
  await db.collection<MigrationCheckpointDoc>('migration_checkpoints').deleteOne({ _id: MIGRATION_ID });
  report.roundTrips += 1;
  const remaining = await db.collection('events').countDocuments({ schemaVersion: { $ne: EVENT_SCHEMA_VERSION } });
  report.roundTrips += 1;
  if (remaining) await pass(db, batchSize, report);
  await foldTargetSaves(db, report);
  await db
    .collection<MigrationCheckpointDoc>('migration_checkpoints')
    .updateOne(
      { _id: MIGRATION_ID },
      { $set: { lastId: null, done: true, updatedAt: new Date() }, $setOnInsert: { migrated: 0 } },
      { upsert: true },
    );
  report.roundTrips += 1;
  return { ...report, done: true };
}
