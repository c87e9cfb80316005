import type { AnyBulkWriteOperation, Db } from 'mongodb';
import { dayAtNoonUtc, eventDedupeKey, eventSlug } from '../worker/events/catalog/identity';
import type { EventDoc } from '../worker/events/documents';
import { DEMO_EVENTS, type DemoEvent, VENUES } from './demo-events';

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (now: Date, days: number) => new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10);

function demoDoc(event: DemoEvent, now: Date): Omit<EventDoc, '_id' | 'createdAt'> {
  const startAt = event.day === null ? null : dayAtNoonUtc(isoDay(now, event.day));
  const endAt = event.day !== null && event.days ? dayAtNoonUtc(isoDay(now, event.day + event.days - 1)) : null;
  const venue = event.venue ? VENUES[event.venue]! : null;
  const dedupeKey = eventDedupeKey({ title: event.title, startAt, city: venue?.city });
  const slug = eventSlug(event.title, dedupeKey);
  return {
    slug,
    dedupeKey,
    title: event.title,
    description: `${event.title}: a demo event of the local stack (scripts/seed-events.ts).`,
    sports: event.sports,
    startAt,
    endAt,
    timezone: null,
    timeTba: false,
    status: (endAt ?? startAt ?? now) < now ? 'completed' : 'scheduled',
    isOnline: false,
    venue,
    organizer: { name: 'Rider Demo Events', verified: true },
    image: `https://images.example/events/${slug}.jpg`,
    source: 'demo',
    sourceId: slug,
    sourceUrl: `https://events.example/${slug}`,
    updatedAt: now,
    lastSeenAt: now,
    ...event.extra,
  };
}

/**
 * About 30 events around `now` (past and future, several sports, a time TBA, online and multi-day
 * ones) so the events routes answer on a fresh local stack. Upserts by dedupe key, as ingestion
 * does: running it again the same day changes nothing but updatedAt and lastSeenAt.
 */
export async function seedDemoEvents(db: Db, now = new Date()): Promise<number> {
  const operations: AnyBulkWriteOperation<EventDoc>[] = DEMO_EVENTS.map((event) => {
    const doc = demoDoc(event, now);
    return {
      updateOne: {
        filter: { dedupeKey: doc.dedupeKey },
        update: { $set: doc, $setOnInsert: { createdAt: now } },
        upsert: true,
      },
    };
  });
  await db.collection<EventDoc>('events').bulkWrite(operations, { ordered: false });
  return operations.length;
}
