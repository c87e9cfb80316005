/**
 * One reminder run (worker/riding/reminders/run.ts) over 50,000 due reminders on the dev database, sending to a local
 * stand-in of Expo's push API that counts requests and messages. Database round trips are the commands the
 * driver starts during the run (command monitoring). Riders have one live token and no quiet hours.
 * Run: npx tsx bench/reminder-run.ts   (ROWS, LISTS_PER_RIDER override)
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { applyIndexes } from '../worker/data.js';
import { createStore } from '../worker/platform/db/store.js';
import type { Env } from '../worker/platform/env.js';
import { runReminders } from '../worker/riding/reminders/run.js';
import { insertInChunks, seedDueReminders } from './due-reminders.js';

const ROWS = Number(process.env.ROWS ?? 50_000);
const LISTS_PER_RIDER = Number(process.env.LISTS_PER_RIDER ?? 5);
const RIDERS = Math.ceil(ROWS / LISTS_PER_RIDER);

const push = { requests: 0, messages: 0 };
const expo = http.createServer((req, res) => {
  let text = '';
  req.on('data', (chunk) => {
    text += chunk;
  });
  req.on('end', () => {
    const messages = JSON.parse(text) as unknown[];
    push.requests += 1;
    push.messages += messages.length;
    const data = messages.map(() => ({ status: 'ok', id: crypto.randomUUID() }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
  });
});
await new Promise<void>((resolve) => expo.listen(0, '127.0.0.1', resolve));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reminder-bench-'));
const server = await startDevDb({ port: 0, dataDir, quiet: true });
const client = new MongoClient(server.uri, { monitorCommands: true });
try {
  const db = client.db('reminder_bench');
  await applyIndexes(db);
  const now = new Date();
  const seedStart = performance.now();
  const inChunks = (name: string, docs: object[]) => insertInChunks(db, name, docs);
  const riders = Array.from({ length: RIDERS }, () => new ObjectId());
  await inChunks(
    'users',
    riders.map((_id, i) => ({
      _id,
      name: `Rider ${i}`,
      email: `rider${i}@bench.test`,
      role: null,
      notificationPreferences: { quietHours: { start: '00:00', end: '00:00', timezone: 'UTC' } },
      createdAt: now,
      updatedAt: now,
    })),
  );
  await inChunks(
    'pushTokens',
    riders.map((userId, i) => ({
      userId,
      token: `ExponentPushToken[bench${String(i).padStart(17, '0')}]`,
      platform: 'ios',
      transport: 'gateway',
      timezone: 'UTC',
      lastSeenAt: now,
      deadAt: null,
      deadReason: null,
      createdAt: now,
      updatedAt: now,
    })),
  );
  await seedDueReminders(
    db,
    Array.from({ length: ROWS }, (_, i) => riders[Math.floor(i / LISTS_PER_RIDER)]!),
    now,
  );
  console.log(
    `seeded ${ROWS} due reminders of ${RIDERS} riders in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const commands = new Map<string, number>();
  client.on('commandStarted', (event) => commands.set(event.commandName, (commands.get(event.commandName) ?? 0) + 1));
  const env = { EXPO_PUSH_URL: `http://127.0.0.1:${(expo.address() as AddressInfo).port}` } as Env;
  const start = performance.now();
  const summary = await runReminders(
    createStore(() => db),
    env,
    new Date(),
  );
  const seconds = (performance.now() - start) / 1000;
  const roundTrips = [...commands.values()].reduce((sum, n) => sum + n, 0);
  const sent = await db.collection('scheduledNotifications').countDocuments({ status: 'sent' });
  console.log(`run: ${seconds.toFixed(1)} s`);
  console.log(`summary: ${JSON.stringify(summary)}; rows sent in the database: ${sent}`);
  console.log(`push API: ${push.requests} requests, ${push.messages} messages`);
  console.log(`database round trips: ${roundTrips} (${[...commands].map(([name, n]) => `${name} ${n}`).join(', ')})`);
} finally {
  await client.close();
  await server.close();
  expo.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
