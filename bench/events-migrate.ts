/**
 * `npm run migrate:events` over 20,000 stored Live events: seconds and
 * database round trips (commands the driver sent, counted by command monitoring), for a first
 * run and for a second run that finds nothing to do. The dev database by default; a real one with
 * MONGODB_URI (its database is dropped first: use a scratch one).
 * Run: npx tsx bench/events-migrate.ts   (EVENTS, BATCH, MONGODB_URI override)
 */
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { applyIndexes } from '../worker/data.js';
import { eventDedupeKey, eventSlug } from '../worker/events/catalog/identity.js';
import { migrateEvents } from '../worker/events/catalog/migration.js';

const EVENTS = Number(process.env.EVENTS ?? 20_000);
const BATCH = Number(process.env.BATCH ?? 500);
const DAY_MS = 24 * 60 * 60 * 1000;
const CITIES: [string, string, number, number][] = [
  ['Austin', 'US', 30.27, -97.74],
  ['Berlin', 'Germany', 52.52, 13.4],
  ['Tokyo', 'Japan', 35.68, 139.69],
];

/** A Live record as both connectors and the previous service stored them. */
function liveDoc(i: number, now: number) {
  const [city, country, lat, lng] = CITIES[i % CITIES.length]!;
  const title = `Bench Jam ${i}`;
  const startAt = new Date(Math.floor((now + ((i % 730) - 365) * DAY_MS) / DAY_MS) * DAY_MS + DAY_MS / 2);
  const dedupeKey = eventDedupeKey({ title, startAt, city });
  const two = i % 2 === 1;
  return {
    _id: new ObjectId(),
    slug: eventSlug(title, dedupeKey),
    dedupeKey,
    title,
    description: 'A benchmark event with an ordinary description of a day of riding.',
    sports: ['skateboarding'],
    startAt,
    endAt: null,
    timezone: null,
    timeTba: two,
    status: 'scheduled',
    isOnline: false,
    venue: { name: `${city} Park`, city, region: null, country, lat, lng },
    organizer: { name: 'Bench Org', verified: true },
    ...(two ? { level: i % 4 === 1 ? 'invite-only' : 'open', intents: ['compete'], sourceTrust: 0.9 } : {}),
    participation: i % 3 === 0 ? { registrationStatus: 'open' } : undefined,
    source: two ? 'source-two' : 'source-one',
    sourceId: String(i),
    sourceUrl: `https://example.test/events/${i}`,
    contentHash: `h${i}`,
    createdAt: new Date(now),
    updatedAt: new Date(now),
    lastSeenAt: new Date(now),
  };
}

async function main() {
  const dev = process.env.MONGODB_URI ? undefined : await startDevDb({ port: 0, quiet: true });
  const uri = process.env.MONGODB_URI ?? `${dev!.uri}/bench_migrate`;
  let commands = 0;
  const client = new MongoClient(uri, { monitorCommands: true });
  client.on('commandStarted', () => {
    commands += 1;
  });
  try {
    const db = client.db();
    await db.dropDatabase();
    await applyIndexes(db);
    const now = Date.now();
    for (let i = 0; i < EVENTS; i += 1000) {
      await db
        .collection('events')
        .insertMany(Array.from({ length: Math.min(1000, EVENTS - i) }, (_, k) => liveDoc(i + k, now)));
    }
    for (const label of ['first run', 'second run']) {
      commands = 0;
      const started = performance.now();
      const report = await migrateEvents(db, { batchSize: BATCH });
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `${label}: ${EVENTS} events, batch ${BATCH}: ${seconds.toFixed(2)} s, ${commands} round trips (driver commands), migrated ${report.migrated}, batches ${report.batches}`,
      );
    }
  } finally {
    await client.close();
    await dev?.close();
  }
}

await main();
