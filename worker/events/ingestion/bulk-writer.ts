import { type AnyBulkWriteOperation, type BulkWriteResult, MongoBulkWriteError, type ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import { describeError, logEvent } from '../../platform/ops/log-line';
import { storedLosesTo } from '../catalog/trust';
import { STALE_AFTER_MS } from '../catalog/vocabulary';
import { recordEventChanges } from '../changes/record';
import type { EventDoc } from '../documents';
import { readEvents } from '../stored-event';
import { onEventPublished } from '../subscriptions/match';
import { eventKeys } from '../subscriptions/match-keys';
import type { EventRecord } from './event-record';

export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  failed: number;
  skipped: number;
}

/** Scheduled until its last day (end, or start without one) is over everywhere. */
export function statusAt(event: { startAt?: Date | null; endAt?: Date | null }, now: Date): EventDoc['status'] {
  const last = event.endAt ?? event.startAt;
  return last && last.getTime() + LIMITS.ingestion.dayOverAfterMs < now.getTime() ? 'completed' : 'scheduled';
}

/**
 * Two statements per event, in one round trip per batch:
 * 1. content, only when its hash differs and the stored content loses to this listing by
 *    sourceTrust (worker/events/catalog/trust.ts, the one rule);
 * 2. an upsert keyed by dedupeKey that stamps lastSeenAt and freshness and, on insert only,
 *    everything else (approval by trust, zero relationship counts).
 * So a repeat sighting changes lastSeenAt and freshness alone, and the same event from two
 * sources settles on the more trusted source's content instead of flipping on every run.
 */
function statements(record: EventRecord, now: Date): AnyBulkWriteOperation<EventDoc>[] {
  const { dedupeKey, ...content } = record.content;
  const status = statusAt(content, now);
  const claim = { source: content.source, sourceTrust: content.sourceTrust };
  return [
    {
      updateOne: {
        filter: { dedupeKey, contentHash: { $ne: record.contentHash }, ...storedLosesTo(claim) },
        update: { $set: { ...content, contentHash: record.contentHash, status, updatedAt: now } },
      },
    },
    {
      updateOne: {
        filter: { dedupeKey },
        update: {
          $set: {
            lastSeenAt: now,
            'freshness.lastVerifiedAt': now,
            'freshness.staleAfter': new Date(now.getTime() + STALE_AFTER_MS),
          },
          $setOnInsert: {
            ...content,
            ...record.insertOnly,
            slug: record.slug,
            contentHash: record.contentHash,
            status,
            sourceRefs: [],
            'freshness.changedAt': null,
            createdAt: now,
            updatedAt: now,
          },
        },
        upsert: true,
      },
    },
  ];
}

/**
 * Each listing's entry in its event's sourceRefs, replaced only when the payload changed; one
 * round trip per batch, after the events exist. A pipeline update, so the entry is swapped in
 * one atomic step (never two entries for one source listing).
 */
async function writeSourceRefs(store: Store, batch: EventRecord[], now: Date): Promise<void> {
  const ops: AnyBulkWriteOperation<EventDoc>[] = batch.map((record) => {
    const ref = {
      sourceId: record.content.source ?? null,
      externalId: record.content.sourceId ?? null,
      url: record.content.sourceUrl ?? null,
      sourceUpdatedAt: null,
      fetchedAt: now,
      payloadHash: record.payloadHash,
    };
    const same = { sourceId: ref.sourceId, externalId: ref.externalId };
    return {
      updateOne: {
        filter: {
          dedupeKey: record.dedupeKey,
          sourceRefs: { $not: { $elemMatch: { ...same, payloadHash: ref.payloadHash } } },
        },
        update: [
          {
            $set: {
              sourceRefs: {
                $concatArrays: [
                  {
                    $filter: {
                      input: { $ifNull: ['$sourceRefs', []] },
                      cond: {
                        $not: [
                          {
                            $and: [
                              { $eq: ['$$this.sourceId', ref.sourceId] },
                              { $eq: ['$$this.externalId', ref.externalId] },
                            ],
                          },
                        ],
                      },
                    },
                  },
                  [{ $literal: ref }],
                ],
              },
            },
          },
        ],
      },
    };
  });
  if (ops.length) await store.events.bulkWrite(ops, { ordered: false });
}

/** What the change history and subscription matching read of an event (worker/events/changes/, worker/events/subscriptions/). */
const WATCHED = {
  _id: 1,
  dedupeKey: 1,
  contentHash: 1,
  approvalStatus: 1,
  updatedAt: 1,
  startAt: 1,
  endAt: 1,
  venue: 1,
  status: 1,
  'participation.registrationStatus': 1,
  sports: 1,
  disciplines: 1,
  eventKinds: 1,
  intents: 1,
  level: 1,
  'organizer.canonicalId': 1,
} as const;

/**
 * After a batch is written: a source's update of an existing published event goes through the change
 * history (logged with the source as `by`, riders notified), and a newly inserted approved event is
 * matched against subscriptions. Two reads per batch, plus writes only where something changed.
 */
async function afterWrite(
  store: Store,
  batch: EventRecord[],
  stored: Map<string, EventDoc>,
  insertedIds: ObjectId[],
  now: Date,
): Promise<number> {
  const touched = batch.filter((record) => {
    const before = stored.get(record.dedupeKey);
    return before && before.contentHash !== record.contentHash;
  });
  const ids = [...touched.map((record) => stored.get(record.dedupeKey)!._id), ...insertedIds];
  if (!ids.length) return 0;
  const after = readEvents(await store.events.find({ _id: { $in: ids } }, { projection: WATCHED }).toArray());
  const afterById = new Map(after.map((event) => [event._id.toHexString(), event]));
  let failed = 0;
  // One event's history or matching failing is that event's failure, never the rest of the batch's.
  const isolated = async (dedupeKey: string, step: () => Promise<unknown>) => {
    try {
      await step();
    } catch (err) {
      failed += 1;
      logEvent('ingestion.event.failed', { dedupeKey, code: null, error: describeError(err) });
    }
  };
  for (const record of touched) {
    const before = stored.get(record.dedupeKey)!;
    const current = afterById.get(before._id.toHexString());
    if (!current) continue;
    await isolated(record.dedupeKey, async () => {
      await recordEventChanges(store, { before, after: current, by: `source:${record.content.source}`, at: now });
      if (eventKeys(current).join() !== eventKeys(before).join())
        await onEventPublished(store, current, now, { previously: before });
    });
  }
  for (const id of insertedIds) {
    const event = afterById.get(id.toHexString());
    if (event) await isolated(event.dedupeKey, () => onEventPublished(store, event, now));
  }
  return failed;
}

/**
 * The stored events a batch writes to, read through readEvent, and the listings whose stored event
 * cannot be read: those are left alone this run (skipped and counted), the rest of the batch goes on.
 */
async function storedFor(store: Store, listed: EventRecord[]) {
  const rows = await store.events
    .find({ dedupeKey: { $in: listed.map((record) => record.dedupeKey) } }, { projection: WATCHED })
    .toArray();
  const stored = new Map(readEvents(rows).map((event) => [event.dedupeKey, event]));
  const unreadable = new Set(rows.flatMap((row) => (stored.has(row.dedupeKey) ? [] : [row.dedupeKey])));
  for (const record of listed.filter((record) => unreadable.has(record.dedupeKey)))
    logEvent('ingestion.event.skipped', { source: record.content.source ?? '', dedupeKey: record.dedupeKey });
  return { stored, batch: listed.filter((record) => !unreadable.has(record.dedupeKey)), skipped: unreadable.size };
}

async function writeBatch(store: Store, listed: EventRecord[], now: Date): Promise<WriteCounts> {
  const { stored, batch, skipped } = await storedFor(store, listed);
  const ops = batch.flatMap((record) => statements(record, now));
  let result: BulkWriteResult;
  const failedEvents = new Set<number>();
  const failedUpserts = new Set<number>();
  try {
    result = await store.events.bulkWrite(ops, { ordered: false });
  } catch (err) {
    // A refused statement (a slug taken by another event, say) fails that event, not the batch.
    if (!(err instanceof MongoBulkWriteError)) throw err;
    result = err.result;
    for (const writeError of Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors]) {
      const event = Math.floor(writeError.index / 2);
      failedEvents.add(event);
      if (writeError.index % 2 === 1) failedUpserts.add(event);
      logEvent('ingestion.event.failed', {
        dedupeKey: batch[event]?.dedupeKey ?? '',
        code: writeError.code ?? null,
        error: writeError.errmsg ?? '',
      });
    }
  }
  const inserted = result.upsertedCount;
  // Every event the upsert found existed already; the content statement matched the changed ones among them.
  const existing = batch.length - inserted - failedUpserts.size;
  const updated = Math.max(0, result.matchedCount - existing);
  const failed = failedEvents.size;
  await writeSourceRefs(
    store,
    batch.filter((_, index) => !failedUpserts.has(index)),
    now,
  );
  const insertedIds = Object.values(result.upsertedIds ?? {}) as ObjectId[];
  const failedAfter = await afterWrite(store, batch, stored, insertedIds, now);
  const unchanged = batch.length - inserted - updated - failed;
  return { inserted, updated, unchanged, failed: failed + failedAfter, skipped };
}

/** Writes one source's events in batches of LIMITS.ingestion.writeBatch; sourceTrust decides whose content stays. */
export async function writeEvents(store: Store, records: EventRecord[], now: Date): Promise<WriteCounts> {
  const total: WriteCounts = { inserted: 0, updated: 0, unchanged: 0, failed: 0, skipped: 0 };
  for (let start = 0; start < records.length; start += LIMITS.ingestion.writeBatch) {
    const counts = await writeBatch(store, records.slice(start, start + LIMITS.ingestion.writeBatch), now);
    for (const key of Object.keys(total) as (keyof WriteCounts)[]) total[key] += counts[key];
  }
  return total;
}

/** Events whose last day is over move to completed (the interface spec's two statuses). */
export async function completePastEvents(store: Store, now: Date): Promise<number> {
  const dayOverBefore = new Date(now.getTime() - LIMITS.ingestion.dayOverAfterMs);
  const { modifiedCount } = await store.events.updateMany(
    {
      status: { $ne: 'completed' },
      $or: [{ endAt: { $lt: dayOverBefore } }, { endAt: null, startAt: { $lt: dayOverBefore } }],
    },
    { $set: { status: 'completed', updatedAt: now } },
  );
  return modifiedCount;
}
