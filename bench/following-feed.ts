/**
 * The following feed assembled on read, on the local stack (scripts/dev.ts: wrangler dev + the dev database):
 * POSTS (100,000) posts by RIDERS (5,000) riders seeded straight into the database, one rider following FOLLOWS
 * (1,000) of them. Times `GET /api/feed?scope=following` (the first page, and pages 2 to PAGES reached by their
 * cursors) beside the public feed `GET /api/feed` read the same way in the same run, REQUESTS sequential requests
 * each: p50, p95 and the ratio to the public feed. Names the index that serves the query (the dev database has no
 * explain).
 * Run: npx tsx bench/following-feed.ts   (POSTS, RIDERS, FOLLOWS, REQUESTS=200, PAGES=5, PORT=8803 override)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { nameWords } from '../worker/accounts/users/name-words.js';
import { SOCIAL_INDEXES } from '../worker/social/indexes.js';
import { sequentialLatency, startLocalStack } from './local-stack.js';

const POSTS = Number(process.env.POSTS ?? 100_000);
const RIDERS = Number(process.env.RIDERS ?? 5_000);
const FOLLOWS = Number(process.env.FOLLOWS ?? 1_000);
const REQUESTS = Number(process.env.REQUESTS ?? 200);
const PAGES = Number(process.env.PAGES ?? 5);
const PORT = Number(process.env.PORT ?? 8803);
const BATCH = 5_000;
const DAY_SECONDS = 24 * 60 * 60;

/** An ObjectId made at `seconds` (a post's time), its other bytes random so ids stay unique. */
function idAt(seconds: number): ObjectId {
  const tail = Array.from({ length: 8 }, () => Math.floor(Math.random() * 256));
  const bytes = new Uint8Array([
    (seconds >>> 24) & 255,
    (seconds >>> 16) & 255,
    (seconds >>> 8) & 255,
    seconds & 255,
    ...tail,
  ]);
  return new ObjectId(bytes);
}

const devdb = await startDevDb({ port: 0, quiet: true });
const uri = `${devdb.uri}/bench_following_feed`;
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-following-feed-'));
const stack = await startLocalStack({ mongodbUri: uri, port: PORT, stateDir });
const client = new MongoClient(uri);
try {
  // The stack applied the indexes and its demo data before it served; the bulk rows go in after.
  const db = client.db();
  const api = (p: string, token: string) => fetch(`${stack.url}/api${p}`, { headers: { 'x-auth-token': token } });
  const registered = await fetch(`${stack.url}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench Reader',
      email: `reader-${Date.now()}@bench.test`,
      password: 'bench-password',
    }),
  });
  const { token, user } = (await registered.json()) as { token: string; user: { _id: string } };
  const readerId = new ObjectId(user._id);

  const start = performance.now();
  const now = new Date();
  const riderIds = Array.from({ length: RIDERS }, () => new ObjectId());
  for (let i = 0; i < RIDERS; i += BATCH) {
    await db.collection('users').insertMany(
      riderIds.slice(i, i + BATCH).map((_id, k) => {
        const name = `Rider ${i + k}`;
        return {
          _id,
          name,
          nameWords: nameWords(name),
          email: `rider-${i + k}@bench.test`,
          role: 'user',
          createdAt: now,
          updatedAt: now,
        };
      }),
    );
  }
  // Posts spread over the last 90 days, each by a random rider: the followed riders' posts are interleaved with
  // everyone else's, as on a live feed.
  const nowSeconds = Math.floor(Date.now() / 1000);
  for (let i = 0; i < POSTS; i += BATCH) {
    await db.collection('feed_posts').insertMany(
      Array.from({ length: Math.min(BATCH, POSTS - i) }, (_, k) => {
        const seconds = nowSeconds - Math.floor(Math.random() * 90 * DAY_SECONDS);
        const at = new Date(seconds * 1000);
        return {
          _id: idAt(seconds),
          userId: riderIds[Math.floor(Math.random() * RIDERS)]!,
          text: `post ${i + k} at the park`,
          media: [],
          counts: { love: 0, respect: 0, comments: 0 },
          createdAt: at,
          updatedAt: at,
        };
      }),
    );
  }
  const followed = riderIds.slice(0, FOLLOWS);
  await db
    .collection('follows')
    .insertMany(followed.map((followedId) => ({ followerId: readerId, followedId, createdAt: now, updatedAt: now })));
  await db.collection('users').updateOne({ _id: readerId }, { $set: { followingCount: FOLLOWS } });
  console.log(
    `seeded ${RIDERS} riders, ${POSTS} posts, ${FOLLOWS} follows in ${(performance.now() - start).toFixed(0)} ms`,
  );

  /** The cursors of pages 2..PAGES of a feed, walked from its first page. */
  const cursorsOf = async (feed: string) => {
    const cursors: string[] = [];
    let cursor: string | null = null;
    for (let page = 1; page < PAGES; page++) {
      const res = await api(cursor ? `${feed}${feed.includes('?') ? '&' : '?'}cursor=${cursor}` : feed, token);
      const body = (await res.json()) as { items: { author: { _id: string } }[]; nextCursor: string | null };
      if (res.status !== 200 || !body.nextCursor) throw new Error(`${feed} page ${page} answered ${res.status}`);
      cursors.push(body.nextCursor);
      cursor = body.nextCursor;
    }
    return cursors;
  };
  const measure = (label: string, paths: string[]) =>
    sequentialLatency(label, REQUESTS, (i) => api(paths[i % paths.length]!, token));

  const firstPage = await api('/feed?scope=following', token);
  const firstBody = (await firstPage.json()) as { items: { author: { _id: string } }[] };
  const followedHex = new Set([user._id, ...followed.map((id) => id.toHexString())]);
  if (!firstBody.items.length || !firstBody.items.every((item) => followedHex.has(item.author._id)))
    throw new Error('the following feed holds posts by riders the reader does not follow');

  const following = '/feed?scope=following';
  const followingCursors = (await cursorsOf(following)).map((c) => `${following}&cursor=${c}`);
  const publicCursors = (await cursorsOf('/feed')).map((c) => `/feed?cursor=${c}`);
  const rows: [string, string[], string, string[]][] = [
    ['GET /api/feed?scope=following, first page', [following], 'GET /api/feed, first page (baseline)', ['/feed']],
    [
      `GET /api/feed?scope=following, pages 2-${PAGES} by cursor`,
      followingCursors,
      `GET /api/feed, pages 2-${PAGES} by cursor (baseline)`,
      publicCursors,
    ],
  ];
  for (const [label, paths, baselineLabel, baselinePaths] of rows) {
    const measured = await measure(label, paths);
    const baseline = await measure(baselineLabel, baselinePaths);
    console.log(
      `  ratio to the baseline: p50 ${(measured.p50 / baseline.p50).toFixed(2)}x, p95 ${(measured.p95 / baseline.p95).toFixed(2)}x`,
    );
  }
  const index = SOCIAL_INDEXES.find((declared) => declared.collection === 'feed_posts' && 'userId' in declared.key)!;
  console.log(
    `served by feed_posts index ${index.options.name} ${JSON.stringify(index.key)} (worker/social/indexes.ts; the dev database has no explain)`,
  );
} finally {
  await client.close();
  await stack.stop();
  await devdb.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
}
process.exit(0);
