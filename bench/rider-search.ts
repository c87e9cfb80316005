/**
 * Rider search on the local stack (scripts/dev.ts: wrangler dev + the dev database) over RIDERS (100,000) riders
 * with realistic names, accented ones among them, seeded straight into the database with their `nameWords` as the
 * service stores them (worker/accounts/users/name-words.ts). Times `GET /api/users/search?q=` for a one-word
 * prefix, two words and an accented query, beside `GET /api/users/me` in the same run, REQUESTS sequential
 * requests each: p50, p95 and the ratio to the baseline. Names the index that serves the query (the dev database
 * has no explain).
 * Run: npx tsx bench/rider-search.ts   (RIDERS, REQUESTS=200, PORT=8805 override)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { ACCOUNTS_INDEXES } from '../worker/accounts/indexes.js';
import { nameWords } from '../worker/accounts/users/name-words.js';
import { sequentialLatency, startLocalStack } from './local-stack.js';

const RIDERS = Number(process.env.RIDERS ?? 100_000);
const REQUESTS = Number(process.env.REQUESTS ?? 200);
const PORT = Number(process.env.PORT ?? 8805);
const BATCH = 5_000;

const FIRST = [
  'José',
  'María',
  'Zoë',
  'Chloé',
  'Renée',
  'Søren',
  'Björn',
  'Łukasz',
  'Ángel',
  'Noémie',
  'Jürgen',
  'Çağla',
  'Liam',
  'Olivia',
  'Noah',
  'Emma',
  'Mateo',
  'Sofia',
  'Kai',
  'Yuki',
  'Hiro',
  'Aiyana',
  'Tyler',
  'Jamie',
  'Alex',
  'Sam',
  'Nina',
  'Tony',
  'Rodney',
  'Leticia',
  'Nyjah',
  'Elissa',
  'Bob',
  'Lizzie',
  'Chris',
  'Shaun',
  'Anna',
];
const LAST = [
  'Ramírez',
  'García',
  'Müller',
  'Nuñez',
  'Åberg',
  'Østergaard',
  'Dubois',
  'Lefèvre',
  'Kowalski',
  'Yılmaz',
  'Smith',
  'Johnson',
  'Brown',
  'Hawk',
  'Mullen',
  'Huston',
  'Steamer',
  'Burnquist',
  'Armanto',
  'White',
  'Tanaka',
  'Sato',
  'Silva',
  'Santos',
  'Rossi',
  'Novak',
  'Jensen',
  'Olsen',
  "O'Brien",
  'van der Berg',
  'Nguyen',
  'Kim',
];
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

const QUERIES: [string, string][] = [
  ['one word prefix', 'ram'],
  ['one common word', 'jose'],
  ['two words', 'maria gar'],
  ['accented query', 'Zoë Åberg'],
  ['no match', 'qxzv'],
];

const devdb = await startDevDb({ port: 0, quiet: true });
const uri = `${devdb.uri}/bench_rider_search`;
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-rider-search-'));
// One rider times every query here, far past the per-minute search limits a real rider meets.
const searches = String(REQUESTS * 10);
const stack = await startLocalStack({
  mongodbUri: uri,
  port: PORT,
  stateDir,
  env: { RIDER_SEARCHES_PER_MINUTE: searches, RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE: searches },
});
const client = new MongoClient(uri);
try {
  // The stack applied the indexes and its demo data before it served; the bulk rows go in after.
  const db = client.db();
  const registered = await fetch(`${stack.url}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench Reader',
      email: `reader-${Date.now()}@bench.test`,
      password: 'bench-password',
    }),
  });
  const { token } = (await registered.json()) as { token: string };
  const api = (p: string) => fetch(`${stack.url}/api${p}`, { headers: { 'x-auth-token': token } });

  const start = performance.now();
  const createdAt = new Date();
  for (let i = 0; i < RIDERS; i += BATCH) {
    await db.collection('users').insertMany(
      Array.from({ length: Math.min(BATCH, RIDERS - i) }, (_, k) => {
        const name = `${pick(FIRST)} ${pick(LAST)}`;
        const _id = new ObjectId();
        return {
          _id,
          name,
          nameWords: nameWords(name),
          email: `rider-${i + k}@bench.test`,
          role: 'user',
          createdAt,
          updatedAt: createdAt,
        };
      }),
    );
  }
  console.log(`seeded ${RIDERS} riders in ${(performance.now() - start).toFixed(0)} ms`);

  const measure = (label: string, p: string) =>
    sequentialLatency(
      label,
      REQUESTS,
      () => api(p),
      (body) => {
        const found = (JSON.parse(body) as { items?: unknown[] }).items?.length ?? 0;
        return found ? `, ${found} on the page` : '';
      },
    );
  const baseline = await measure('GET /api/users/me (baseline)', '/users/me');
  for (const [label, q] of QUERIES) {
    const figures = await measure(
      `GET /api/users/search?q=${q} (${label})`,
      `/users/search?q=${encodeURIComponent(q)}`,
    );
    console.log(
      `  ratio to the baseline: p50 ${(figures.p50 / baseline.p50).toFixed(2)}x, p95 ${(figures.p95 / baseline.p95).toFixed(2)}x`,
    );
  }
  const index = ACCOUNTS_INDEXES.find((declared) => 'nameWords' in declared.key)!;
  console.log(
    `served by users index ${index.options.name} ${JSON.stringify(index.key)} (worker/accounts/indexes.ts; the dev database has no explain)`,
  );
} finally {
  await client.close();
  await stack.stop();
  await devdb.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
}
process.exit(0);
