/**
 * The analytics dashboard on the local stack (wrangler dev + the dev database, as test/support/realtime-stack.ts
 * starts them): 100,000 events seeded straight into the database, then the seconds each of
 * `GET /api/analytics/dashboard/wpr`, `/retention` and `/quality` takes over them (defaults: 8 weeks, 7 days), and
 * the same service functions run straight against the database (the pipelines' cost on the dev database, which
 * evaluates them in slices while serving other connections: devdb/README.md, "Long aggregations").
 * Run: npx tsx bench/analytics-dashboard.ts   (EVENTS, RIDERS, RUNS override)
 */
import { MongoClient, ObjectId } from 'mongodb';
import { DAY, eventDoc, seedRider } from '../test/support/analytics-seed.js';
import { startRealtimeStack } from '../test/support/realtime-stack.js';
import { applyIndexes } from '../worker/data.js';
import { type AnalyticsEventName, COUNTED_FROM } from '../worker/growth/analytics/taxonomy.js';
import { MEANINGFUL_ACTIONS } from '../worker/growth/dashboard/meaningful.js';
import { dataQuality, signupRetention, weeklyProgressingRiders } from '../worker/growth/dashboard/service.js';
import { createStore } from '../worker/platform/db/store.js';

const EVENTS = Number(process.env.EVENTS ?? 100_000);
const RIDERS = Number(process.env.RIDERS ?? 2_000);
const RUNS = Number(process.env.RUNS ?? 3);
const NAMES = [...Object.keys(MEANINGFUL_ACTIONS), 'app_opened', 'trick_viewed', 'spot_viewed'];
const PLATFORMS = ['ios', 'android', 'web'] as const;

const stack = await startRealtimeStack();
try {
  const client = new MongoClient(stack.databaseUri);
  const db = client.db();
  await applyIndexes(db);
  const now = Date.now();
  const riders: ObjectId[] = [];
  // Signups over the last ten weeks; one rider in forty is an excluded account.
  for (let i = 0; i < RIDERS; i++) {
    const exclusion = i % 40 === 0 ? { isBot: true as const } : {};
    riders.push(await seedRider(db, new Date(now - Math.random() * 70 * DAY), exclusion));
  }
  const seedStart = performance.now();
  for (let done = 0; done < EVENTS; done += 5_000) {
    const batch = Array.from({ length: Math.min(5_000, EVENTS - done) }, (_, i) => {
      const at = new Date(now - Math.random() * 63 * DAY);
      // One event in fifty lacks its installation id (anonymous events are every tenth, so offset by one).
      const complete = (done + i) % 50 !== 1;
      const name = NAMES[(done + i) % NAMES.length]!;
      return eventDoc({
        name,
        at,
        userId: (done + i) % 10 === 0 ? null : riders[Math.floor(Math.random() * riders.length)],
        // As stored: the API's own copy of the actions it records, the clients' copy of the others.
        platform:
          COUNTED_FROM[name as AnalyticsEventName] === 'server' ? 'server' : PLATFORMS[(done + i) % PLATFORMS.length],
        envelope: {
          appVersion: '1.4.2',
          buildNumber: 140,
          sessionId: crypto.randomUUID(),
          ...(complete ? { anonymousId: `install-${i % 500}` } : {}),
        },
      });
    });
    await db.collection('analytics_events').insertMany(batch);
  }
  console.log(
    `seeded ${RIDERS} riders and ${EVENTS} events in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );
  const store = createStore(() => db);
  const direct = {
    wpr: () => weeklyProgressingRiders(store, 8, new Date()),
    retention: () => signupRetention(store, 8, new Date()),
    quality: () => dataQuality(store, 7, new Date()),
  };
  for (const [name, run] of Object.entries(direct)) {
    const seconds: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await run();
      seconds.push((performance.now() - started) / 1000);
    }
    console.log(`service ${name} straight on the database: ${seconds.map((s) => s.toFixed(2)).join(' s, ')} s`);
  }
  await client.close();

  const { body: registered } = await stack.api('/users', {
    body: {
      name: 'Bench admin',
      email: `bench-${crypto.randomUUID().slice(0, 6)}@bench.test`,
      password: 'bench-password',
    },
  });
  const admin = new MongoClient(stack.databaseUri);
  await admin
    .db()
    .collection('users')
    .updateOne({ _id: new ObjectId(registered.user._id) }, { $set: { role: 'admin' } });
  await admin.close();

  for (const path of ['wpr', 'retention', 'quality']) {
    const seconds: number[] = [];
    let summary = '';
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const { status, body } = await stack.api(`/analytics/dashboard/${path}`, { token: registered.token });
      seconds.push((performance.now() - started) / 1000);
      if (status !== 200) {
        summary = `answered ${status}: ${JSON.stringify(body)}`;
        continue;
      }
      summary =
        path === 'wpr'
          ? `newest window ${body.windows.at(-1).riders} riders, depth ${body.windows.at(-1).depth.toFixed(2)}, excluded ${body.windows.at(-1).excluded}`
          : path === 'retention'
            ? `${body.cohorts.length} cohorts, oldest W1 ${JSON.stringify(body.cohorts[0].w1)}`
            : `${body.events} events, share ${body.share?.toFixed(4)}`;
    }
    console.log(
      `GET /api/analytics/dashboard/${path}: ${seconds.map((s) => s.toFixed(2)).join(' s, ')} s (${summary})`,
    );
  }
} finally {
  await stack.stop();
}
