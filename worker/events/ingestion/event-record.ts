import { createHash } from 'node:crypto';
import type { EventIntent, EventLevel, EventSport } from '../../platform/sports';
import { eventDedupeKey, eventSlug } from '../catalog/identity';
import { toTargetShape } from '../catalog/record-upgrade';
import { APPROVAL_TRUST_MIN } from '../catalog/vocabulary';
import type { EventDoc } from '../documents';
import { rawOf } from './raw-payload';

/** One upstream event as a connector normalizes it: the stored shape's content fields. */
export interface NormalizedEvent {
  title: string;
  description: string | null;
  sports: EventSport[];
  startAt: Date | null;
  endAt: Date | null;
  timeTba: boolean;
  isOnline: boolean;
  venue: { name: string | null; city: string | null; region: string | null; country: string | null };
  organizer: { name: string | null; verified: boolean } | null;
  spectating: { inPerson: boolean } | null;
  image: string | null;
  series: string | null;
  source: string;
  sourceId: string;
  sourceUrl: string;
  /** Second connector only (the interface spec). */
  disciplines?: string[];
  eventKinds?: string[];
  intents?: EventIntent[];
  level?: EventLevel;
  sourceTrust?: number;
}

/** An item the connector could read the structure of but not use (an impossible date, say): counted as failed. */
export interface RejectedItem {
  sourceId: string;
  reason: string;
}

export type ContentFields = Omit<EventDoc, '_id' | 'slug' | 'status' | 'createdAt' | 'updatedAt' | 'lastSeenAt'>;

/** What one sighting writes: identity, content and the hash that tells a changed sighting from a repeat. */
export interface EventRecord {
  dedupeKey: string;
  slug: string;
  /** Target-shaped content (worker/events/catalog/record-upgrade.ts) without the fields only an insert sets. */
  content: ContentFields;
  /** Hash of the Live-shaped content, as before the target model, so a repeat sighting stays a repeat. */
  contentHash: string;
  /** Set on insert only: approval by trust, zero relationship counts. */
  insertOnly: { approvalStatus: 'pending' | 'approved'; relationshipCounts: Record<string, number> };
  /** The upstream item as read, and its hash (eventSourceRecords; sourceRefs[].payloadHash). */
  raw: unknown;
  payloadHash: string;
}

const sha1 = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('hex');

/** Fields the target shape adds that a content update must not touch (they track riders and review). */
const INSERT_ONLY = ['approvalStatus', 'relationshipCounts', 'freshness', 'sourceRefs', 'liveCompat'] as const;

export function toEventRecord(event: NormalizedEvent): EventRecord {
  const dedupeKey = eventDedupeKey({ title: event.title, startAt: event.startAt, city: event.venue.city });
  const live: ContentFields = {
    dedupeKey,
    ...event,
    timezone: null,
    venue: { ...event.venue, lat: null, lng: null },
  };
  const target = toTargetShape(live as EventDoc) as unknown as Record<string, unknown>;
  for (const field of ['_id', ...INSERT_ONLY]) delete target[field];
  const raw = rawOf(event);
  const trust = typeof target.sourceTrust === 'number' ? target.sourceTrust : 0;
  return {
    dedupeKey,
    slug: eventSlug(event.title, dedupeKey),
    content: target as unknown as ContentFields,
    contentHash: sha1(live),
    insertOnly: {
      // The documented threshold (worker/events/catalog/vocabulary.ts): a less trusted listing waits for review.
      approvalStatus: trust >= APPROVAL_TRUST_MIN ? 'approved' : 'pending',
      relationshipCounts: { interested: 0, going: 0, competing: 0, watching_online: 0 },
    },
    raw,
    payloadHash: sha1(raw),
  };
}

/** The same event listed twice by one source: the first listing wins, later ones are counted as repeats. */
export function uniqueByDedupeKey(records: EventRecord[]): { records: EventRecord[]; repeats: number } {
  const seen = new Map<string, EventRecord>();
  for (const record of records) if (!seen.has(record.dedupeKey)) seen.set(record.dedupeKey, record);
  return { records: [...seen.values()], repeats: records.length - seen.size };
}
