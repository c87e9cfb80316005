import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { describeError, logEvent } from '../../platform/ops/log-line';
import type { IngestionRunDoc } from '../documents';
import { completePastEvents, writeEvents } from './bulk-writer';
import { followMerges, joinNearIdentical, linkSpots, mapOrganizers } from './cross-source';
import { toEventRecord, uniqueByDedupeKey } from './event-record';
import { lastSucceededRun, recordRun } from './run-log';
import { ShapeError } from './shape-error';
import { keepSourceRecords, recordSourceHealth } from './source-records';
import { EVENT_SOURCES, type EventSource, readSource } from './sources';

type Trigger = IngestionRunDoc['trigger'];

const NO_COUNTS = { fetched: 0, inserted: 0, updated: 0, unchanged: 0, duplicates: 0, failed: 0, skipped: 0 };

/** Reads the whole listing first, so a shape change found on any page writes nothing. */
async function ingestSource(store: Store, env: Env, source: EventSource, now: Date) {
  const { events, rejected } = await readSource(env, source);
  const fetched = events.length + rejected.length;
  if (fetched === 0) {
    const last = await lastSucceededRun(store, source.name);
    if (last && last.fetched >= LIMITS.ingestion.zeroEventsAfter)
      throw new ShapeError(
        source.name,
        `no events, where the last successful run (${last.startedAt.toISOString()}) read ${last.fetched}`,
      );
  }
  // Most items failing to parse is a format change upstream, not bad items: fail the run loudly, so it is noticed.
  if (fetched >= LIMITS.ingestion.zeroEventsAfter && rejected.length > fetched * LIMITS.ingestion.rejectedShareMax) {
    const sample = rejected[0]!;
    throw new ShapeError(
      source.name,
      `${rejected.length} of ${fetched} items could not be read (e.g. ${sample.sourceId}: ${sample.reason})`,
    );
  }
  for (const item of rejected)
    logEvent('ingestion.item.skipped', { source: source.name, sourceId: item.sourceId, reason: item.reason });
  const { records: listed, repeats } = uniqueByDedupeKey(events.map(toEventRecord));
  await keepSourceRecords(store, source.name, listed, now);
  // Near-identical listings join stored events, so the same real event is listed once.
  const joined = uniqueByDedupeKey(
    // …and a listing of an event merged on the desk writes to the survivor.
    await followMerges(
      store,
      await joinNearIdentical(store, await linkSpots(store, await mapOrganizers(store, listed, now))),
    ),
  );
  const counts = await writeEvents(store, joined.records, now);
  return { ...counts, fetched, duplicates: repeats + joined.repeats, failed: counts.failed + rejected.length };
}

/** One source's run, recorded whatever happens; a failure is logged loudly and stops only this source. */
async function runSource(store: Store, env: Env, source: EventSource, runId: string, trigger: Trigger) {
  const startedAt = new Date();
  let outcome: Pick<IngestionRunDoc, 'status' | 'error'> & typeof NO_COUNTS;
  try {
    outcome = { status: 'succeeded', error: null, ...(await ingestSource(store, env, source, startedAt)) };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    logEvent('ingestion.source.failed', { source: source.name, error: describeError(err) });
    outcome = { status: 'failed', error, ...NO_COUNTS };
  }
  const finishedAt = new Date();
  const { status, error, ...counts } = outcome;
  await recordSourceHealth(store, source, { status, error, at: finishedAt, counts });
  const run = {
    runId,
    source: source.name,
    trigger,
    startedAt,
    finishedAt,
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    ...outcome,
  };
  return recordRun(store, run);
}

/**
 * Runs every source one after the other (their ranks make the order irrelevant), then moves
 * finished events to completed. Answers the run records, one per source.
 */
export async function runIngestion(store: Store, env: Env, trigger: Trigger): Promise<IngestionRunDoc[]> {
  const runId = crypto.randomUUID();
  const runs: IngestionRunDoc[] = [];
  for (const source of EVENT_SOURCES) runs.push(await runSource(store, env, source, runId, trigger));
  await completePastEvents(store, new Date());
  return runs;
}

/** A run's items left undone, for its cron line: listings skipped, items failed, and each failed source as one. */
export function ingestionTally(runs: IngestionRunDoc[]): { skipped: number; failed: number } {
  return {
    skipped: runs.reduce((sum, run) => sum + (run.skipped ?? 0), 0),
    failed: runs.reduce((sum, run) => sum + run.failed + (run.status === 'failed' ? 1 : 0), 0),
  };
}
