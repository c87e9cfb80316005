import { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { readEach, readOne } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { DataExportDoc } from '../documents';
import { exportDay, exportKey } from './naming';
import { readExport } from './read-export';

// Every query of the rider-facing side of data_exports: asking, listing, finding one. The background run's
// queries are in ./builds.ts, the expiry's in ./cleanup.ts.

/** An export asked for, and whether this request made it (false: today's, made earlier or by a racing request). */
export interface Asked {
  export: DataExportDoc;
  created: boolean;
}

/**
 * Asks for a copy of the rider's data: today's export, made now unless the rider has one of this UTC day
 * already. The unique index on rider and day decides between two racing requests: the loser answers the winner's.
 */
export async function askForExport(
  store: Store,
  riderId: ObjectId,
  { now = new Date(), requestedBy }: { now?: Date; requestedBy?: ObjectId } = {},
): Promise<Asked | 'unreadable'> {
  const _id = new ObjectId();
  const doc: DataExportDoc = {
    _id,
    riderId,
    day: exportDay(now),
    state: 'queued',
    ...(requestedBy ? { requestedBy } : {}),
    dueAt: now,
    attempts: 0,
    leaseId: null,
    key: exportKey(riderId, _id),
    createdAt: now,
    updatedAt: now,
  };
  const created = await onDuplicateKey(
    async () => {
      await store.data_exports.insertOne(doc);
      return true;
    },
    () => false,
  );
  if (created) return { export: doc, created };
  const today = readOne('data_exports', await store.data_exports.findOne({ riderId, day: doc.day }), readExport);
  return today ? { export: today, created } : 'unreadable';
}

/** The rider's exports, newest day first (LIMITS.dataExports.listMax of them). */
export async function listExports(store: Store, riderId: ObjectId): Promise<DataExportDoc[]> {
  const docs = await store.data_exports.find({ riderId }).sort({ day: -1 }).limit(LIMITS.dataExports.listMax).toArray();
  return readEach('data_exports', docs, readExport);
}

/** One export of this rider; another rider's reads as none. */
export async function findExport(store: Store, riderId: ObjectId, exportId: ObjectId) {
  return readOne('data_exports', await store.data_exports.findOne({ _id: exportId, riderId }), readExport);
}

/** One export by id alone: for the download link, whose signature names the rider. */
export async function findExportById(store: Store, exportId: ObjectId) {
  return readOne('data_exports', await store.data_exports.findOne({ _id: exportId }), readExport);
}

/** Whether the account exists: an admin starts exports only for riders there are. */
export async function riderExists(store: Store, riderId: ObjectId): Promise<boolean> {
  return (await store.users.countDocuments({ _id: riderId }, { limit: 1 })) > 0;
}
