import {
  createdAtOf,
  readCount,
  readDate,
  readId,
  readOneOf,
  readString,
  updatedAtOf,
} from '../../platform/db/stored-values';
import { type DataExportDoc, EXPORT_FAILURES, EXPORT_STATES } from '../documents';

// The one reader of a stored export (data_exports): every route, the background run and the cleanup read
// through it, so a document damaged by hand never reaches them as something it is not.

/** The stored export, read; undefined when it names no rider, no day or no state it can be in. */
export function readExport(stored: object): DataExportDoc | undefined {
  const doc = stored as Record<string, unknown>;
  const _id = readId(doc._id);
  const riderId = readId(doc.riderId);
  const day = readString(doc.day);
  const state = readOneOf(doc.state, EXPORT_STATES);
  if (!_id || !riderId || !day || !state) return undefined;
  const optional = {
    requestedBy: readId(doc.requestedBy),
    key: readString(doc.key),
    bytes: readCount(doc.bytes),
    readyAt: readDate(doc.readyAt),
    expiresAt: readDate(doc.expiresAt),
    failure: readOneOf(doc.failure, EXPORT_FAILURES),
  };
  return {
    _id,
    riderId,
    day,
    state,
    // A missing due date reads as due now: the run then settles the export rather than leave it waiting forever.
    dueAt: readDate(doc.dueAt) ?? new Date(0),
    attempts: readCount(doc.attempts) ?? 0,
    leaseId: readString(doc.leaseId) ?? null,
    ...(Object.fromEntries(
      Object.entries(optional).filter(([, value]) => value !== undefined),
    ) as Partial<DataExportDoc>),
    createdAt: createdAtOf(doc),
    updatedAt: updatedAtOf(doc),
  };
}
