import type { ObjectId } from 'mongodb';
import { insertKeepingFirst } from '../../platform/db/insert-keeping-first';
import type { Store } from '../../platform/db/store';
import type { AnalyticsEventDoc, AnalyticsQuarantineDoc } from '../documents';
import { classifyEvent } from './classify';
import type { QuarantineReason } from './envelope';
import { type ExperimentCatalog, loadExperimentCatalog, recordExposure } from './exposures';
import { EXPOSURE_EVENT } from './taxonomy';

/** What happened to one envelope of a batch; `index` is its place in the batch. */
export type IngestResult =
  | { index: number; eventId: string | null; status: 'accepted' | 'duplicate' }
  | { index: number; eventId: string | null; status: 'quarantined'; reason: QuarantineReason };

/**
 * Stores a batch of envelopes: valid ones in analytics_events (append-only, eventId unique),
 * the rest in analytics_quarantine with the reason. Never drops one silently: every envelope
 * gets a result, in batch order. `caller` is the signed-in account, null when anonymous.
 */
export async function ingestEvents(store: Store, caller: ObjectId | null, batch: unknown[]): Promise<IngestResult[]> {
  const receivedAt = new Date();
  const namesExposure = batch.some((raw) => (raw as { name?: unknown } | null)?.name === EXPOSURE_EVENT);
  const experiments: ExperimentCatalog = namesExposure ? await loadExperimentCatalog(store) : new Map();
  const sorted = batch.map((raw) => classifyEvent(raw, caller, receivedAt, experiments));
  const events: { index: number; doc: AnalyticsEventDoc }[] = [];
  const quarantined: AnalyticsQuarantineDoc[] = [];
  sorted.forEach((entry, index) => {
    if (entry.kind === 'event') events.push({ index, doc: entry.doc });
    else quarantined.push(entry.doc);
  });

  // The two collections are written at once: one round trip of waiting, not two, for a batch with both kinds.
  const [duplicates] = await Promise.all([
    insertKeepingFirst(
      store.db,
      store.analytics_events,
      events.map((event) => event.doc),
    ),
    // A quarantined retry is the same refusal again: its first copy stays, the answer does not change.
    insertKeepingFirst(store.db, store.analytics_quarantine, quarantined),
  ]);
  // A duplicate is recorded again too (the upsert changes nothing): a retry after a failure here completes the exposure.
  await Promise.all(
    events.flatMap(({ doc }) => {
      const properties = doc.properties as { experimentKey: string; variant: string };
      if (doc.name !== EXPOSURE_EVENT || !experiments.get(properties.experimentKey)?.running) return [];
      const { userId, occurredAt } = doc;
      return [recordExposure(store, { ...properties, userId, anonymousId: doc.anonymousId ?? null, occurredAt })];
    }),
  );
  const eventPosition = new Map(events.map((event, position) => [event.index, position]));
  return sorted.map((entry, index): IngestResult => {
    const eventId = entry.doc.eventId ?? null;
    if (entry.kind === 'quarantine') return { index, eventId, status: 'quarantined', reason: entry.reason };
    const duplicate = duplicates.has(eventPosition.get(index) ?? -1);
    return { index, eventId, status: duplicate ? 'duplicate' : 'accepted' };
  });
}
