/**
 * A rider's data export (worker/accounts/exports/archive.ts) built inside workerd: a rider with POSTS posts and
 * MEDIA_MB of uploads in the local R2, one with half as much, and a small rider (100 posts, 2 MB) as the baseline of
 * the same run. The Worker is bundled as a deploy does with one more route (bench/data-export-worker.ts) and served
 * by Miniflare in this process, R2 persisted to disk; the database is the dev server, read over the gateway.
 * Each build runs in a fresh workerd after a warm-up build. Memory: the resident set (VmRSS) of the workerd
 * processes under this one, sampled every 20 ms, before and at the peak of the build; it includes the local R2
 * simulator, which runs in the same workerd and sees every part go by. Bounded memory peaks about as high for half
 * the data as for all. The archives are then tested with `unzip -t` where installed.
 * Run: npx tsx bench/data-export.ts   (POSTS=10000, MEDIA_MB=200 override)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { type Db, MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { buildWorker } from '../scripts/workerd-direct.js';
import { directArguments } from '../scripts/workerd-direct-args.js';
import { directOptions } from '../scripts/workerd-direct-options.js';
import { applyIndexes } from '../worker/data.js';
import { workerdRssBytes } from './workerd-memory.js';

const POSTS = Number(process.env.POSTS ?? 10_000);
const MEDIA_MB = Number(process.env.MEDIA_MB ?? 200);
const FILE_MB = 5;
const MB = 1024 * 1024;

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
const devdb = await startDevDb({ port: 0, quiet: true, dataDir: path.join(workDir, 'devdb') });
const uri = `${devdb.uri}/bench_export`;
const client = await new MongoClient(uri).connect();
const db = client.db('bench_export');
await applyIndexes(db);

console.log('Bundling the Worker with the bench route…');
const build = buildWorker(path.join(workDir, 'build'), { entry: 'bench/data-export-worker.ts' });
const args = directArguments(['--port', '0', '--log-level', 'warn', '--persist-to', path.join(workDir, 'state')]);
/** The Worker in a workerd of its own; R2 persists on disk, so each start sees what the last one stored. */
async function startWorker() {
  const mf = new Miniflare(directOptions(build, { ...args, vars: { MONGODB_URI: uri } }));
  return { mf, url: await mf.ready, media: await mf.getR2Bucket('MEDIA') };
}
let { mf, url, media } = await startWorker();

/** A rider with `posts` posts and `mediaMb` of photos and videos, seeded straight into the database and R2. */
async function seedRider(target: Db, label: string, posts: number, mediaMb: number): Promise<ObjectId> {
  const riderId = new ObjectId();
  const now = new Date();
  await target
    .collection('users')
    .insertOne({ _id: riderId, name: label, email: `${label}@bench.test`, role: null, createdAt: now });
  for (let at = 0; at < posts; at += 1_000) {
    const count = Math.min(1_000, posts - at);
    await target.collection('feed_posts').insertMany(
      Array.from({ length: count }, (_, n) => ({
        userId: riderId,
        text: `A session at the park, number ${at + n}: kickflips, a nollie heel and a long manual down the ledge.`,
        media: [],
        counts: { love: 3, respect: 1, comments: 0 },
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  const file = new Uint8Array(Math.min(FILE_MB, mediaMb) * MB);
  for (let at = 0; at < file.length; at += 65_536) crypto.getRandomValues(file.subarray(at, at + 65_536));
  for (let written = 0; written < mediaMb; written += FILE_MB) {
    const _id = new ObjectId();
    const key = `media/${riderId}/${_id}`;
    file[0] = written % 256;
    await media.put(key, file);
    await target
      .collection('media')
      .insertOne({ _id, ownerId: riderId, key, type: 'video/mp4', kind: 'video', bytes: file.length, createdAt: now });
  }
  return riderId;
}

interface Figures {
  seconds: number;
  beforeMb: number;
  peakMb: number;
  zipMb: number;
  peakHeldMb: number;
}

/**
 * Builds one rider's export through the bench route in a fresh workerd, after a warm-up build (the isolate, the
 * gateway's objects and their connections start then), sampling workerd's memory meanwhile: seeding and reading
 * archives back go through workerd too, and V8 keeps the pages it grew to, so a shared workerd would blur the figure.
 */
async function buildExport(riderId: ObjectId, warmUp: ObjectId): Promise<Figures> {
  await mf.dispose();
  ({ mf, url, media } = await startWorker());
  await exportOnce(warmUp);
  const key = exportKey(riderId);
  const before = workerdRssBytes(process.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, workerdRssBytes(process.pid));
  }, 20);
  const started = performance.now();
  const body = await exportOnce(riderId);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  keys.push(key);
  return {
    seconds,
    beforeMb: before / MB,
    peakMb: peak / MB,
    zipMb: body.result.bytes / MB,
    peakHeldMb: body.result.peakHeldBytes / MB,
  };
}

const exportKey = (riderId: ObjectId) => `exports/${riderId}.zip`;

async function exportOnce(riderId: ObjectId): Promise<{ result: { bytes: number; peakHeldBytes: number } }> {
  const key = exportKey(riderId);
  const res = await fetch(`${url.origin}/__bench/export?rider=${riderId}&key=${encodeURIComponent(key)}`);
  const body = (await res.json()) as { result: { bytes: number; peakHeldBytes: number } };
  if (res.status !== 200) throw new Error(`the build answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Reads the archive back and tests it with `unzip -t`, an independent reader, when the machine has it. */
async function checkArchiveAsync(key: string): Promise<void> {
  const object = await media.get(key);
  if (!object) throw new Error(`no archive at ${key}`);
  const file = path.join(workDir, 'archive.zip');
  await fs.promises.writeFile(file, Buffer.from(await object.arrayBuffer()));
  const tested = spawnSync('unzip', ['-tq', file], { encoding: 'utf8' });
  if (tested.error) console.log('  (unzip not installed: archive not tested)');
  else if (tested.status !== 0) throw new Error(`unzip -t failed: ${tested.stdout}${tested.stderr}`);
  else console.log(`  unzip -t: ${tested.stdout.trim()}`);
  await fs.promises.rm(file);
}
const keys: string[] = [];

const line = (label: string, f: Figures) =>
  console.log(
    `${label.padEnd(36)} ${f.seconds.toFixed(1).padStart(6)} s  workerd ${f.beforeMb.toFixed(0).padStart(4)} MB before, peak ${f.peakMb.toFixed(0).padStart(4)} MB  ` +
      `ZIP ${f.zipMb.toFixed(0).padStart(4)} MB  (ZIP held at most ${f.peakHeldMb.toFixed(0)} MB)`,
  );

try {
  console.log(
    `Seeding riders: a small one, and ones with ${POSTS / 2} and ${POSTS} posts and ${MEDIA_MB / 2} and ${MEDIA_MB} MB of media…`,
  );
  const warmUp = await seedRider(db, 'warm-up-rider', 100, 2);
  const small = await seedRider(db, 'small-rider', 100, 2);
  const half = await seedRider(db, 'half-rider', POSTS / 2, MEDIA_MB / 2);
  const large = await seedRider(db, 'large-rider', POSTS, MEDIA_MB);
  const rows: [string, Figures][] = [];
  for (const [label, rider] of [
    ['baseline: 100 posts, 2 MB of media', small],
    [`${POSTS / 2} posts, ${MEDIA_MB / 2} MB of media`, half],
    [`${POSTS} posts, ${MEDIA_MB} MB of media`, large],
  ] as const) {
    const figures = await buildExport(rider, warmUp);
    line(label, figures);
    rows.push([label, figures]);
  }
  const [baseline, halfFigures, full] = rows.map(([, figures]) => figures) as [Figures, Figures, Figures];
  console.log(
    `time: ×${(halfFigures.seconds / baseline.seconds).toFixed(1)} and ×${(full.seconds / baseline.seconds).toFixed(1)} the baseline's; ` +
      `workerd's peak: ${halfFigures.peakMb.toFixed(0)} MB at half the data, ${full.peakMb.toFixed(0)} MB at all of it ` +
      `(${baseline.peakMb.toFixed(0)} MB for the baseline)`,
  );
  for (const key of keys) await checkArchiveAsync(key);
} finally {
  await mf.dispose();
  await client.close();
  await devdb.close();
  fs.rmSync(workDir, { recursive: true, force: true });
}
