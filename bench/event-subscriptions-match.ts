/**
 * Matching one newly published event against 50,000 event subscriptions:
 * milliseconds per event through `matchingSubscriptions` (the query onEventPublished runs), the
 * candidates the index returned against the true matches, and a full scan of every subscription for
 * comparison. Prints the index that serves the query: the winning plan's `explain` on a real MongoDB
 * (MONGODB_URI; its database is dropped first, use a scratch one); the dev database has no `explain`
 * and answers `{field: {$in: [...]}}` on a single-field index from its index map (devdb/README.md).
 * Run: npx tsx bench/event-subscriptions-match.ts   (SUBSCRIPTIONS, EVENTS, MONGODB_URI override)
 */
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { applyIndexes } from '../worker/data.js';
import type { EventSubscriptionDoc } from '../worker/events/documents.js';
import { candidateFilter, MATCH_INDEX, matchingSubscriptions } from '../worker/events/subscriptions/match.js';
import { matches, subscriptionKeys } from '../worker/events/subscriptions/match-keys.js';
import { createStore } from '../worker/platform/db/store.js';
import { percentile } from './local-stack.js';

const SUBSCRIPTIONS = Number(process.env.SUBSCRIPTIONS ?? 50_000);
const EVENTS = Number(process.env.EVENTS ?? 30);
const SPORTS = ['skateboarding', 'snowboarding', 'bmx', 'wakeboarding', 'skiing'];
const INTENTS = ['compete', 'spectate_in_person', 'spectate_online'];
const DISCIPLINES = [
  'street',
  'park',
  'bowl',
  'vert',
  'slopestyle',
  'big air',
  'halfpipe',
  'flatland',
  'dirt',
  'cable',
];
const ORGANIZERS = Array.from({ length: 300 }, () => new ObjectId());
// 200 places spread over the inhabited latitudes, as riders' home towns would be.
const PLACES = Array.from({ length: 200 }, (_, i) => ({
  lat: -40 + ((i * 37) % 100),
  lng: -170 + ((i * 97) % 340),
}));

let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
const some = <T>(items: T[], n: number) => [...new Set(Array.from({ length: n }, () => pick(items)))];
const near = (place: { lat: number; lng: number }, km: number) => ({
  lat: Math.max(-89, Math.min(89, place.lat + ((random() - 0.5) * km) / 111)),
  lng: place.lng + ((random() - 0.5) * km) / 111,
});

/**
 * A mix of what riders save: 45% a place (10 to 300 km) often with a sport, 35% sports alone,
 * 10% an organizer, 10% disciplines or intents.
 */
function subscription(i: number): EventSubscriptionDoc {
  const r = random();
  const criteria = {
    sports: [] as string[],
    disciplines: [] as string[],
    eventKinds: [] as string[],
    intents: [] as string[],
    level: [] as string[],
    place: null as EventSubscriptionDoc['place'],
    organizerId: null as ObjectId | null,
  };
  if (r < 0.45) {
    const at = near(pick(PLACES), 200);
    criteria.place = {
      location: { type: 'Point', coordinates: [at.lng, at.lat] },
      radiusKm: 10 + Math.floor(random() * 290),
      label: null,
    };
    if (random() < 0.6) criteria.sports = some(SPORTS, 1);
  } else if (r < 0.8) criteria.sports = some(SPORTS, 1 + Math.floor(random() * 2));
  else if (r < 0.9) criteria.organizerId = pick(ORGANIZERS);
  else if (random() < 0.5) criteria.disciplines = some(DISCIPLINES, 2);
  else criteria.intents = some(INTENTS, 1);
  const now = new Date();
  return {
    _id: new ObjectId(),
    userId: new ObjectId(),
    name: `Bench ${i}`,
    ...criteria,
    matchKeys: subscriptionKeys(criteria),
    lastDigestAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

function newEvent() {
  const at = near(pick(PLACES), 100);
  return {
    _id: new ObjectId(),
    slug: 'bench',
    title: 'Bench Jam',
    sports: some(SPORTS, 1),
    disciplines: some(DISCIPLINES, 1),
    intents: ['compete'],
    organizer: { name: 'Bench Org', canonicalId: pick(ORGANIZERS) },
    venue: {
      name: 'Park',
      lat: at.lat,
      lng: at.lng,
      location: { type: 'Point' as const, coordinates: [at.lng, at.lat] as [number, number] },
    },
    approvalStatus: 'approved' as const,
  };
}

async function main() {
  const dev = process.env.MONGODB_URI ? undefined : await startDevDb({ port: 0, quiet: true });
  const uri = process.env.MONGODB_URI ?? `${dev!.uri}/bench_subscriptions`;
  const client = new MongoClient(uri);
  try {
    const db = client.db();
    await db.dropDatabase();
    await applyIndexes(db);
    const store = createStore(() => db);
    for (let i = 0; i < SUBSCRIPTIONS; i += 1000)
      await store.eventSubscriptions.insertMany(
        Array.from({ length: Math.min(1000, SUBSCRIPTIONS - i) }, (_, k) => subscription(i + k)),
      );
    const keysPerSub = (await store.eventSubscriptions.find({}, { projection: { matchKeys: 1 } }).toArray()).map(
      (s) => s.matchKeys.length,
    );
    console.log(
      `${SUBSCRIPTIONS} subscriptions stored under ${(keysPerSub.reduce((a, b) => a + b, 0) / keysPerSub.length).toFixed(2)} match keys each on average`,
    );

    const events = Array.from({ length: EVENTS }, newEvent);
    await matchingSubscriptions(store, events[0]!); // warm-up
    const indexed: number[] = [];
    const scanned: number[] = [];
    let candidates = 0;
    let matched = 0;
    for (const event of events) {
      let started = performance.now();
      const found = await matchingSubscriptions(store, event);
      indexed.push(performance.now() - started);
      candidates += await store.eventSubscriptions.countDocuments(candidateFilter(event));
      matched += found.length;
      // The same answer without the index: read every subscription and check each.
      started = performance.now();
      const all = await store.eventSubscriptions.find({}).toArray();
      const truth = all.filter((sub) => matches(sub, event));
      scanned.push(performance.now() - started);
      if (truth.length !== found.length) throw new Error(`index missed matches: ${found.length} of ${truth.length}`);
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const [i, s] = [sorted(indexed), sorted(scanned)];
    console.log(
      `one new event against ${SUBSCRIPTIONS} subscriptions, ${EVENTS} events: indexed p50 ${percentile(i, 50).toFixed(1)} ms, p95 ${percentile(i, 95).toFixed(1)} ms; ` +
        `${(candidates / EVENTS).toFixed(0)} candidates and ${(matched / EVENTS).toFixed(0)} matches per event on average (same matches as the scan)`,
    );
    console.log(
      `full scan for comparison: p50 ${percentile(s, 50).toFixed(1)} ms, p95 ${percentile(s, 95).toFixed(1)} ms`,
    );
    if (process.env.MONGODB_URI) {
      const plan = await store.eventSubscriptions.find(candidateFilter(events[0]!)).explain('queryPlanner');
      console.log(`winning plan: ${JSON.stringify(plan.queryPlanner.winningPlan)}`);
    } else {
      const indexes = await store.eventSubscriptions.listIndexes().toArray();
      const serving = indexes.find((index) => index.name === MATCH_INDEX);
      console.log(
        `index: eventSubscriptions.${serving?.name} ${JSON.stringify(serving?.key)} (the query is {matchKeys: {$in: <event keys>}}; the dev database has no explain and answers it from this index's key map)`,
      );
    }
  } finally {
    await client.close();
    await dev?.close();
  }
}

await main();
