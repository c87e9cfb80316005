import type { UpdateFilter } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { EventSourceDoc, IngestionRunDoc } from '../documents';
import type { EventRecord } from './event-record';
import type { EventSource } from './sources';

// Provenance: the raw upstream records of each run (eventSourceRecords) and
// each source's settings and health (eventSources). Every query on both collections.

/**
 * Stores each listing's upstream item once per change: one read of the stored hashes, then
 * writes only for new or changed payloads (an unchanged payloadHash skips the write).
 */
export async function keepSourceRecords(store: Store, source: string, records: EventRecord[], now: Date) {
  const externalIds = records.map((record) => record.content.sourceId ?? '');
  const stored = await store.eventSourceRecords
    .find({ sourceId: source, externalId: { $in: externalIds } }, { projection: { externalId: 1, payloadHash: 1 } })
    .toArray();
  const hashes = new Map(stored.map((row) => [row.externalId, row.payloadHash]));
  const changed = records.filter((record) => hashes.get(record.content.sourceId ?? '') !== record.payloadHash);
  if (changed.length) {
    await store.eventSourceRecords.bulkWrite(
      changed.map((record) => ({
        updateOne: {
          filter: { sourceId: source, externalId: record.content.sourceId ?? '' },
          update: {
            $set: { payload: record.raw, payloadHash: record.payloadHash, fetchedAt: now, dedupeKey: record.dedupeKey },
            $setOnInsert: { firstFetchedAt: now },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
  }
  return { written: changed.length, skipped: records.length - changed.length };
}

/** What one run counted, as its ingestion_runs row stores it. */
export type RunCounts = Pick<
  IngestionRunDoc,
  'fetched' | 'inserted' | 'updated' | 'unchanged' | 'duplicates' | 'failed'
> & { skipped: number };

/** A source's settings and health after a run, in one atomic update (created on its first run). */
export async function recordSourceHealth(
  store: Store,
  source: EventSource,
  outcome: { status: 'succeeded' | 'failed'; error: string | null; at: Date; counts: RunCounts },
) {
  const settings = { setting: source.setting, why: source.why };
  const health: UpdateFilter<EventSourceDoc> =
    outcome.status === 'succeeded'
      ? {
          $set: { settings, lastSuccessAt: outcome.at, consecutiveFailures: 0, lastCounts: { ...outcome.counts } },
          $inc: { 'totals.succeeded': 1, 'totals.fetched': outcome.counts.fetched },
        }
      : {
          $set: { settings, lastFailureAt: outcome.at, lastError: outcome.error },
          $inc: { consecutiveFailures: 1, 'totals.failed': 1 },
        };
  await store.eventSources.updateOne({ _id: source.name }, health, { upsert: true });
}
