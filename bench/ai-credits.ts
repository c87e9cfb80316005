/**
 * Paid AI work, run by hand: `npx tsx bench/ai-credits.ts` (RUNS, HOLDS override).
 * 1. The companion reply on the local stack (offline companion, so no model time): p50/p95 of a reply
 *    paid from the allowance (a premium rider) against one paid by a credit reservation (a free rider
 *    past an allowance of 1), and the database round trips each payment path adds, counted by the
 *    driver's command monitor on the same service calls.
 * 2. The cron sweep over HOLDS (10,000) stale reservations on the dev database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { freePort } from '../test/e2e/processes.js';
import { payForReply, settleCall } from '../worker/billing/ai-credits/paid-call.js';
import { sweepStaleReservations } from '../worker/billing/ai-credits/reservations.js';
import { applyIndexes } from '../worker/data.js';
import { createStore } from '../worker/platform/db/store.js';
import type { Env } from '../worker/platform/env.js';
import { percentile, startLocalStack } from './local-stack.js';

const RUNS = Number(process.env.RUNS ?? 200);
const HOLDS = Number(process.env.HOLDS ?? 10_000);
const HOLDS_PER_ACCOUNT = 5;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ai-credits-bench-'));
const server = await startDevDb({ port: 0, dataDir: path.join(dataDir, 'db'), quiet: true });
const client = new MongoClient(server.uri, { monitorCommands: true });
const commands = { count: 0 };
client.on('commandStarted', () => {
  commands.count += 1;
});

async function replyLatencies() {
  const uri = `${server.uri.replace(/\/?$/, '')}/ai_credits_bench`;
  const stack = await startLocalStack({
    mongodbUri: uri,
    port: await freePort(),
    stateDir: path.join(dataDir, 'stack'),
    env: {
      OPENAI_API_KEY: '',
      AI_DAILY_REPLIES_FREE: '1',
      AI_DAILY_REPLIES_PREMIUM: String(RUNS * 10),
      COMPANION_MESSAGES_PER_MINUTE: String(RUNS * 10),
      VOICE_PORT: String(await freePort()),
      DB_PORT: String(await freePort()),
    },
  });
  try {
    const db = client.db('ai_credits_bench');
    const rider = async (premium: boolean) => {
      const res = await fetch(`${stack.url}/api/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Bench',
          email: `bench-${crypto.randomUUID()}@bench.test`,
          password: 'correct horse',
        }),
      });
      const { token, user } = (await res.json()) as { token: string; user: { _id: string } };
      const userId = new ObjectId(user._id);
      if (premium)
        await db
          .collection('users')
          .updateOne({ _id: userId }, { $set: { subscription: { plan: 'premium', status: 'active' } } });
      else
        await db.collection('credit_accounts').insertOne({
          userId,
          balance: 10_000_000,
          reserved: 0,
          holds: [],
          appliedKeys: [],
          createdAt: new Date(),
          updatedAt: new Date(),
        });
      return token;
    };
    const measure = async (token: string) => {
      const send = () =>
        fetch(`${stack.url}/api/bot-chat/message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-auth-token': token },
          body: JSON.stringify({ message: 'what should I learn next?' }),
        });
      // Warm-up, and the free rider's one allowance reply.
      for (let i = 0; i < 5; i++) await (await send()).arrayBuffer();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        const res = await send();
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`chat answered ${res.status}`);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      return { p50: percentile(times, 50), p95: percentile(times, 95) };
    };
    const allowance = await measure(await rider(true));
    const reserved = await measure(await rider(false));
    const fmt = (f: { p50: number; p95: number }) => `p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms`;
    console.log(`reply paid from the allowance (${RUNS} sequential): ${fmt(allowance)}`);
    console.log(`reply paid by a credit reservation (${RUNS} sequential): ${fmt(reserved)}`);
    console.log(`difference at p50: ${(reserved.p50 - allowance.p50).toFixed(1)} ms`);
  } finally {
    await stack.stop();
  }
}

/** Round trips of the payment calls alone, for each path. */
async function roundTrips() {
  const db = client.db('ai_credits_trips');
  await applyIndexes(db);
  const store = createStore(() => db);
  const env = { AI_DAILY_REPLIES_FREE: '1' } as Env;
  const usage = { operation: 'chat' as const, model: 'gpt-4o-mini', costMicros: 36, credits: 1 };
  const count = async (userId: ObjectId, label: string) => {
    const before = commands.count;
    const payment = await payForReply(store, env, { userId, plan: 'free', surface: 'bot' });
    if ('refused' in payment) throw new Error('refused');
    const paid = commands.count - before;
    await settleCall(store, payment, { ...usage, callId: crypto.randomUUID() });
    console.log(`${label}: ${paid} round trips to pay, ${commands.count - before - paid} to settle and meter`);
  };
  const userId = new ObjectId();
  await db.collection('credit_accounts').insertOne({
    userId,
    balance: 1000,
    reserved: 0,
    holds: [],
    appliedKeys: [],
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  await count(userId, 'allowance');
  await count(userId, 'credit reservation, first refusal of the day (records ai_allowance_exhausted)');
  await count(userId, 'credit reservation');
}

async function sweep() {
  const db = client.db('ai_credits_sweep');
  await applyIndexes(db);
  const stale = new Date(Date.now() - 60 * 60 * 1000);
  const accounts = Math.ceil(HOLDS / HOLDS_PER_ACCOUNT);
  const docs = [];
  const entries = [];
  for (let a = 0; a < accounts; a++) {
    const userId = new ObjectId();
    const holds = Array.from({ length: HOLDS_PER_ACCOUNT }, () => ({
      id: crypto.randomUUID(),
      amount: 10,
      operation: 'chat',
      at: stale,
    }));
    docs.push({
      userId,
      balance: 0,
      reserved: 10 * HOLDS_PER_ACCOUNT,
      holds,
      appliedKeys: [],
      createdAt: stale,
      updatedAt: stale,
    });
    for (const hold of holds) {
      entries.push({
        userId,
        kind: 'reserve',
        amount: -10,
        idempotencyKey: `reserve:${hold.id}`,
        reservationId: hold.id,
        operation: 'chat',
        createdAt: stale,
      });
    }
  }
  for (let i = 0; i < docs.length; i += 5000)
    await db.collection('credit_accounts').insertMany(docs.slice(i, i + 5000));
  for (let i = 0; i < entries.length; i += 5000)
    await db.collection('credit_ledger').insertMany(entries.slice(i, i + 5000));
  const before = commands.count;
  const start = performance.now();
  const ended = await sweepStaleReservations(createStore(() => db));
  const seconds = (performance.now() - start) / 1000;
  const left = await db.collection('credit_accounts').countDocuments({ 'holds.0': { $exists: true } });
  console.log(
    `sweep: ${ended} stale reservations released in ${seconds.toFixed(2)} s, ${commands.count - before} round trips; accounts still holding: ${left}`,
  );
}

try {
  await roundTrips();
  await sweep();
  await replyLatencies();
} finally {
  await client.close();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
