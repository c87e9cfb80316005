import { createHash } from 'node:crypto';
import type { EventDoc } from '../db/event-documents';
import { eventDedupeKey, eventSlug } from '../events/identity';
import type { EventIntent, EventLevel, EventSport } from '../taxonomies';

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
  content: ContentFields;
  contentHash: string;
}

export function toEventRecord(event: NormalizedEvent): EventRecord {
  const dedupeKey = eventDedupeKey({ title: event.title, startAt: event.startAt, city: event.venue.city });
  const content: ContentFields = {
    dedupeKey,
    ...event,
    timezone: null,
    venue: { ...event.venue, lat: null, lng: null },
  };
  return {
    dedupeKey,
    slug: eventSlug(event.title, dedupeKey),
    content,
    contentHash: createHash('sha1').update(JSON.stringify(content)).digest('hex'),
  };
}

/** The same event listed twice by one source: the first listing wins, later ones are counted as repeats. */
export function uniqueByDedupeKey(records: EventRecord[]): { records: EventRecord[]; repeats: number } {
  const seen = new Map<string, EventRecord>();
  for (const record of records) if (!seen.has(record.dedupeKey)) seen.set(record.dedupeKey, record);
  return { records: [...seen.values()], repeats: records.length - seen.size };
}
