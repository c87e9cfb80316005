import type { ObjectId } from 'mongodb';

/**
 * One source's part of one ingestion run (worker/events/ingestion/runner.ts). Counts only, never who
 * started it: the run log holds no personal data, so account deletion has nothing to do here.
 */
export interface IngestionRunDoc {
  _id: ObjectId;
  /** Shared by the records of the sources run together. */
  runId: string;
  source: string;
  trigger: 'schedule' | 'admin';
  status: 'succeeded' | 'failed';
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  /** Upstream items read, usable or not. */
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Items the source listed more than once (same dedupe key): written once. */
  duplicates: number;
  /** Items with an unusable value, and writes the database refused. */
  failed: number;
  /** Why the run failed: the shape change, the HTTP error or the missing setting; null on success. */
  error: string | null;
}
