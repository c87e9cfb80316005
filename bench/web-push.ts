/// <reference path="../test/support/stand-ins/http-ece.d.ts" />
/**
 * Web push beside Expo push in the Worker (workerd under wrangler dev, the local stack of bench/local-stack.ts):
 * reminder runs (the five-minute cron, worker/riding/reminders/run.ts) over due reminders of riders holding one web push
 * subscription or one Expo token each. Three runs in one stack: Expo only, web only, then both in the same
 * run (the headline). Per run: wall time, pushes per second, and the CPU time of the workerd process
 * (/proc, user + system) per push. CPU per encrypted push is also given as the web-only run's CPU per push
 * minus the Expo-only run's (the encryption and the request per push, the rest being the same).
 * The push service answers 201 and decrypts one push in 500 with http_ece, checking the payload is readable.
 * Run: npx tsx bench/web-push.ts   (PUSHES=10000 per transport, PORT=8796, DB_PORT=27096, RUNS=combined)
 */

import { spawn } from 'node:child_process';
import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as ece from 'http_ece';
import { type Db, MongoClient, ObjectId } from 'mongodb';
import { insertInChunks, seedDueReminders } from './due-reminders.js';
import { startLocalStack } from './local-stack.js';
import { workerdCpuSeconds } from './workerd-cpu.js';

const PUSHES = Number(process.env.PUSHES ?? 10_000);
const PORT = Number(process.env.PORT ?? 8796);
const DB_PORT = Number(process.env.DB_PORT ?? 27096);
/** RUNS=combined: only the run with both transports (the per-transport runs take as long again). */
const ONLY_COMBINED = process.env.RUNS === 'combined';
const SAMPLE_EVERY = 500;

// The push services: Expo (tickets for every message) and a web push service (201, a sample decrypted).
const counts = { expoRequests: 0, expoMessages: 0, web: 0, webNot201: 0, decrypted: 0, undecryptable: 0 };
const subscriptions = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
const services = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (req.url?.startsWith('/expo/')) {
      const messages = JSON.parse(body.toString('utf8')) as unknown[];
      counts.expoRequests += 1;
      counts.expoMessages += messages.length;
      const data = messages.map(() => ({ status: 'ok', id: randomUUID() }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
      return;
    }
    counts.web += 1;
    if (!req.headers.authorization?.startsWith('vapid t=') || req.headers['content-encoding'] !== 'aes128gcm') {
      counts.webNot201 += 1;
      res.writeHead(400).end();
      return;
    }
    if (counts.web % SAMPLE_EVERY === 0) {
      const subscription = subscriptions.get(req.url!.split('/').pop()!);
      try {
        const plain = ece.decrypt(body, {
          version: 'aes128gcm',
          privateKey: subscription!.ecdh,
          authSecret: subscription!.auth.toString('base64url'),
        });
        if (JSON.parse(plain.toString('utf8')).data.category === 'reminders') counts.decrypted += 1;
      } catch {
        counts.undecryptable += 1;
      }
    }
    res.writeHead(201).end();
  });
});
await new Promise<void>((resolve) => services.listen(0, '127.0.0.1', resolve));
const servicesUrl = `http://127.0.0.1:${(services.address() as AddressInfo).port}`;

/** Riders with due reminders, each with one web push subscription or one Expo token. */
async function seed(db: Db, transport: 'webpush' | 'gateway', riders: number): Promise<void> {
  const now = new Date();
  const inChunks = (name: string, docs: object[]) => insertInChunks(db, name, docs);
  const ids = Array.from({ length: riders }, () => new ObjectId());
  await inChunks(
    'users',
    ids.map((_id) => ({
      _id,
      name: `Rider ${_id.toHexString()}`,
      email: `${_id.toHexString()}@bench.test`,
      role: null,
      notificationPreferences: { quietHours: { start: '00:00', end: '00:00', timezone: 'UTC' } },
      createdAt: now,
      updatedAt: now,
    })),
  );
  await inChunks(
    'pushTokens',
    ids.map((userId) => {
      const device = {
        userId,
        timezone: 'UTC',
        lastSeenAt: now,
        deadAt: null,
        deadReason: null,
        createdAt: now,
        updatedAt: now,
      };
      if (transport === 'gateway')
        return { ...device, token: `ExponentPushToken[${userId.toHexString()}]`, platform: 'ios', transport };
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = userId.toHexString();
      subscriptions.set(id, { ecdh, auth });
      const endpoint = `${servicesUrl}/push/${id}`;
      return {
        ...device,
        token: endpoint,
        endpoint,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        platform: 'web',
        transport,
      };
    }),
  );
  await seedDueReminders(db, ids, now);
}

// The dev database in a process of its own: in this one it would share an event loop with the push services
// and the seeding, and the Worker's database monitor times out while they are busy.
const devdbUri = `mongodb://127.0.0.1:${DB_PORT}`;
const devdb = spawn(process.execPath, ['--import', 'tsx', 'devdb/src/cli.ts', '--port', String(DB_PORT), '--memory'], {
  stdio: 'ignore',
});
const uri = `${devdbUri}/bench_web_push`;
const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-push-bench-'));
const client = new MongoClient(devdbUri, { serverSelectionTimeoutMS: 30_000 });
await client.connect();
const stack = await startLocalStack({
  mongodbUri: uri,
  port: PORT,
  stateDir,
  // A voice box port of its own: a local stack of the default ports may already be running on this machine.
  env: { EXPO_PUSH_URL: `${servicesUrl}/expo`, VOICE_PORT: process.env.VOICE_PORT ?? '8896' },
});
try {
  const db = client.db('bench_web_push');
  const rows: string[] = [];
  const runs: { name: string; web: number; expo: number }[] = [
    { name: 'Expo only', web: 0, expo: PUSHES },
    { name: 'web only', web: PUSHES, expo: 0 },
    { name: 'web + Expo, one run', web: PUSHES, expo: PUSHES },
  ].filter((run) => !ONLY_COMBINED || run.web === run.expo);
  const perPush: Record<string, number> = {};
  /** Fires the reminders cron; done once every push arrived and no row is pending (the run may go on in waitUntil). */
  const runAndWait = async (before: typeof counts, run: { web: number; expo: number }) => {
    const start = performance.now();
    const res = await fetch(`${stack.url}/__scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
    await res.text();
    const answered = performance.now() - start;
    let arrivedAt = 0;
    let progress = { at: Date.now(), seen: -1 };
    // In-memory counts are polled often; the database (served by this process) only once they are all in.
    for (;;) {
      const seen = counts.web - before.web + counts.expoMessages - before.expoMessages;
      if (seen !== progress.seen) progress = { at: Date.now(), seen };
      if (seen >= run.web + run.expo) {
        arrivedAt ||= performance.now() - start;
        if (!(await db.collection('scheduledNotifications').countDocuments({ status: 'pending' }))) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (Date.now() - progress.at > 300_000) {
        const log = db.collection('notificationDeliveryLog');
        const errors = await log.find({ ticketStatus: 'error' }).limit(3).toArray();
        console.log(`stuck at ${seen} of ${run.web + run.expo} pushes; errors: ${JSON.stringify(errors)}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { answered, arrivedAt, settled: performance.now() - start };
  };
  // One small warm-up run: the Worker's first run compiles and connects.
  await seed(db, 'webpush', 10);
  await seed(db, 'gateway', 10);
  await runAndWait({ ...counts }, { web: 10, expo: 10 });
  for (const run of runs) {
    if (run.web) await seed(db, 'webpush', run.web);
    if (run.expo) await seed(db, 'gateway', run.expo);
    const before = { ...counts };
    const cpuBefore = workerdCpuSeconds(stack.pid);
    const phases = await runAndWait(before, run);
    const seconds = phases.settled / 1000;
    console.log(
      `${run.name}: trigger answered after ${(phases.answered / 1000).toFixed(1)} s, pushes all arrived after ${(phases.arrivedAt / 1000).toFixed(1)} s, rows settled after ${seconds.toFixed(1)} s`,
    );
    const cpuMs = (workerdCpuSeconds(stack.pid) - cpuBefore) * 1000;
    const web = counts.web - before.web;
    const expo = counts.expoMessages - before.expoMessages;
    const pending = await db.collection('scheduledNotifications').countDocuments({ status: 'pending' });
    const total = web + expo;
    perPush[run.name] = cpuMs / total;
    rows.push(
      `| ${run.name.padEnd(20)} | ${String(web).padStart(6)} | ${String(expo).padStart(6)} | ${seconds.toFixed(1).padStart(6)} | ${(total / seconds).toFixed(0).padStart(7)} | ${(web / seconds).toFixed(0).padStart(6)} | ${cpuMs.toFixed(0).padStart(7)} | ${(cpuMs / total).toFixed(3).padStart(7)} | ${pending} |`,
    );
    process.stdout.write(`${rows.at(-1)}\n`);
  }
  console.log(
    '\n| run                  |    web |   Expo | wall s | pushes/s | web/s | CPU ms | CPU ms/push | left pending |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  if (!ONLY_COMBINED) {
    const encrypted = perPush['web only']! - perPush['Expo only']!;
    console.log(
      `\nCPU per encrypted push: ${perPush['web only']!.toFixed(3)} ms in the web-only run, ${encrypted.toFixed(3)} ms more than an Expo push (${perPush['Expo only']!.toFixed(3)} ms)`,
    );
  }
  console.log(
    `push service: ${counts.web} web pushes (${counts.webNot201} refused), ${counts.decrypted} of ${counts.decrypted + counts.undecryptable} sampled decrypted with http_ece; Expo: ${counts.expoMessages} messages in ${counts.expoRequests} requests`,
  );
  console.log(`machine: ${os.cpus()[0]?.model} x${os.cpus().length}`);
} finally {
  await stack.stop();
  await client.close();
  devdb.kill();
  services.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
}
