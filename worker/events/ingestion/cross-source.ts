import type { Store } from '../../platform/db/store';
import { readId } from '../../platform/db/stored-values';
import { normalizeText } from '../catalog/identity';
import { linkedSpotId } from '../catalog/spot-link';
import { isNearIdenticalTitle } from '../catalog/title-similarity';
import type { EventDoc } from '../documents';
import { readEvents } from '../stored-event';
import type { EventRecord } from './event-record';

// Before a source's listings are written: a listing whose dedupe key is new
// but whose title is near-identical to a stored event's at the same UTC day and city joins that
// event (its dedupe key), and organizer names map onto canonical organizers.

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (at: Date | null | undefined) => (at ? at.toISOString().slice(0, 10) : '');

/** Retargets near-identical listings onto stored events; one read of the batch's date range. */
export async function joinNearIdentical(store: Store, records: EventRecord[]): Promise<EventRecord[]> {
  const dated = records.filter((record) => record.content.startAt instanceof Date);
  if (!dated.length) return records;
  const times = dated.map((record) => (record.content.startAt as Date).getTime());
  const from = new Date(Math.floor(Math.min(...times) / DAY_MS) * DAY_MS);
  const to = new Date(Math.floor(Math.max(...times) / DAY_MS) * DAY_MS + DAY_MS);
  // Read through readEvent: a stored event older code left odd joins as read, one with no usable id not at all.
  const stored = readEvents(
    await store.events
      .find(
        { startAt: { $gte: from, $lt: to } },
        { projection: { dedupeKey: 1, title: 1, startAt: 1, 'venue.city': 1, source: 1 } },
      )
      .toArray(),
  );
  const keys = new Set(stored.map((event) => event.dedupeKey));
  const byPlace = new Map<string, EventDoc[]>();
  for (const event of stored) {
    const place = `${day(event.startAt)}|${normalizeText(event.venue?.city)}`;
    byPlace.set(place, [...(byPlace.get(place) ?? []), event]);
  }
  return records.map((record) => {
    if (keys.has(record.dedupeKey)) return record;
    const place = `${day(record.content.startAt)}|${normalizeText(record.content.venue?.city)}`;
    const match = (byPlace.get(place) ?? []).find(
      (event) => event.source !== record.content.source && isNearIdenticalTitle(event.title, record.content.title),
    );
    return match
      ? { ...record, dedupeKey: match.dedupeKey, content: { ...record.content, dedupeKey: match.dedupeKey } }
      : record;
  });
}

/**
 * Listings of an event the desk merged into another (worker/events/desk/merge.ts) write to the
 * survivor: the merged-away document keeps its dedupe key only as an alias. One read of the batch's
 * merged keys, one of their survivors.
 */
export async function followMerges(store: Store, records: EventRecord[]): Promise<EventRecord[]> {
  if (!records.length) return records;
  const merged = await store.events
    .find(
      { dedupeKey: { $in: records.map((record) => record.dedupeKey) }, mergedInto: { $exists: true } },
      { projection: { dedupeKey: 1, mergedInto: 1 } },
    )
    .toArray();
  if (!merged.length) return records;
  const into = (event: EventDoc) => readId(event.mergedInto)?.toHexString();
  const survivorIds = merged.flatMap((event) => readId(event.mergedInto) ?? []);
  const survivors = readEvents(
    await store.events.find({ _id: { $in: survivorIds } }, { projection: { dedupeKey: 1 } }).toArray(),
  );
  const keyOf = new Map(survivors.map((event) => [event._id.toHexString(), event.dedupeKey]));
  const target = new Map(
    merged.flatMap((event) => {
      const key = keyOf.get(into(event) ?? '');
      return key ? [[event.dedupeKey, key] as const] : [];
    }),
  );
  return records.map((record) => {
    const key = target.get(record.dedupeKey);
    return key ? { ...record, dedupeKey: key, content: { ...record.content, dedupeKey: key } } : record;
  });
}

/** An organizer's name as an alias: normalized, company suffixes gone ("VANS Inc." is "vans"). */
export function organizerAlias(name: string | null | undefined): string {
  return normalizeText(name)
    .replace(/\b(inc|llc|ltd|co|corp|gmbh)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Sets organizer.canonicalId from the organizers collection, creating a canonical organizer for
 * an alias none holds (the unique aliases index makes two runs agree on one).
 */
export async function mapOrganizers(store: Store, records: EventRecord[], now: Date): Promise<EventRecord[]> {
  const named = records.filter((record) => organizerAlias(record.content.organizer?.name));
  const aliases = [...new Set(named.map((record) => organizerAlias(record.content.organizer?.name)))];
  if (!aliases.length) return records;
  await store.organizers.bulkWrite(
    aliases.map((alias) => {
      const name = named.find((record) => organizerAlias(record.content.organizer?.name) === alias)!.content.organizer!
        .name!;
      return {
        updateOne: {
          filter: { aliases: alias },
          update: { $setOnInsert: { name, aliases: [alias], url: null, createdAt: now } },
          upsert: true,
        },
      };
    }),
    { ordered: false },
  );
  const organizers = await store.organizers.find({ aliases: { $in: aliases } }).toArray();
  const idOf = new Map(organizers.flatMap((organizer) => organizer.aliases.map((alias) => [alias, organizer])));
  return records.map((record) => {
    const organizer = record.content.organizer;
    const canonical = idOf.get(organizerAlias(organizer?.name));
    if (!organizer || !canonical) return record;
    const mapped = { ...organizer, canonicalId: canonical._id, url: organizer.url ?? canonical.url };
    return { ...record, content: { ...record.content, organizer: mapped } };
  });
}

/** Sets venue.spotId for listings whose venue has a point (worker/events/catalog/spot-link.ts); others keep null. */
export async function linkSpots(store: Store, records: EventRecord[]): Promise<EventRecord[]> {
  return Promise.all(
    records.map(async (record) => {
      const venue = record.content.venue;
      if (!venue?.location) return record;
      const spotId = await linkedSpotId(store, venue);
      return { ...record, content: { ...record.content, venue: { ...venue, spotId } } };
    }),
  );
}
