import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitFrames } from '../../voice-node/src/mp3-frames.js';
import { speak, VoiceClient } from '../../voice-node/test/voice-client.js';
import { UNREACHABLE_ANSWER_MS } from '../support/unreachable-bound';
import { freePort } from './processes';

// The README's run line, exercised as a new user would: the whole local stack (dev database
// process, voice box and wrangler dev), over HTTP and WebSocket.

const dataDir = mkdtempSync(join(tmpdir(), 'rider-e2e-'));
// The Worker's local state (the sign-in limiter) is this run's own, never a developer's .wrangler/state.
const wranglerState = mkdtempSync(join(tmpdir(), 'rider-e2e-wrangler-'));
const ports = { worker: 0, db: 0, voice: 0 };
// A secret given in the environment, unlike the one .dev.vars holds: the environment's must win.
const webhookSecret = `env-secret-${Date.now()}`;
let stack: ChildProcess | undefined;
let log = '';
/** The running stack's dev database process, which a test stops to see the Worker answer without it. */
let devdbPid = 0;

async function startStack(): Promise<void> {
  ports.worker ||= await freePort();
  ports.db ||= await freePort();
  ports.voice ||= await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    env: {
      ...process.env,
      PORT: String(ports.worker),
      INSPECTOR_PORT: String(await freePort()),
      DB_PORT: String(ports.db),
      VOICE_PORT: String(ports.voice),
      DEVDB_DATA: dataDir,
      WRANGLER_STATE: wranglerState,
      MONGODB_URI: '',
      // Unset, so the stack starts its own voice box rather than pointing at one elsewhere.
      VOICE_URL: '',
      PAYMENT_WEBHOOK_SECRET: webhookSecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stack = child;
  devdbPid = 0;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack did not start:\n${log}`)), 90_000);
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const pid = /dev database pid (\d+)/.exec(log);
      if (pid) devdbPid = Number(pid[1]);
      if (/Ready on http/.test(log) && devdbPid) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`stack exited with ${code}:\n${log}`)));
  });
}

async function stopStack(): Promise<void> {
  if (!stack || stack.exitCode !== null) return;
  const exited = new Promise((resolve) => stack!.on('exit', resolve));
  stack.kill('SIGINT');
  await exited;
  log = '';
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${ports.worker}/api${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

afterAll(async () => {
  await stopStack();
  for (const dir of [dataDir, wranglerState]) rmSync(dir, { recursive: true, force: true });
});

describe('local stack (npm run dev)', () => {
  it('serves health, the API description and the docs page', { timeout: 120_000 }, async () => {
    await startStack();
    expect(await (await api('/health')).json()).toMatchObject({ ok: true, db: 'up' });
    expect(((await (await api('/openapi.json')).json()) as { openapi: string }).openapi).toBe('3.1.0');
    expect((await api('/docs')).headers.get('content-type')).toContain('text/html');
    expect(existsSync(join(wranglerState, 'v3'))).toBe(true);
  });

  it('answers every riding-content route with the demo data of a fresh start', async () => {
    const json = async (path: string, init?: RequestInit) => {
      const res = await api(path, init);
      expect(res.status, path).toBe(200);
      return (await res.json()) as any;
    };
    const near = await json('/spots?near=34.0,-118.45&radiusKm=20');
    expect(near.items.length).toBeGreaterThanOrEqual(2);
    expect(near.items[0].distanceKm).toBeGreaterThanOrEqual(0);
    expect(near.items[0].reviewCount).toBe(2);
    const spotId = near.items[0]._id;
    expect((await json(`/spots/${spotId}/stays`)).items).toHaveLength(3);
    expect((await json('/stays/search?near=52.5,13.45&radiusKm=30')).items.length).toBeGreaterThan(0);
    expect((await json(`/spots/${spotId}/reviews`)).reviewCount).toBe(2);
    const events = await json('/events');
    expect(events.events.length).toBeGreaterThan(0);
    expect(events.totalCount).toBeGreaterThanOrEqual(events.events.length);
    expect((await json(`/events/${events.events[0].slug}`))._id).toBe(events.events[0]._id);
    for (const path of ['/trickipedia', '/blog', '/categories', '/subscriptions/plans']) {
      expect((await json(path)).items.length, path).toBeGreaterThan(0);
    }
    const password = /rider: rider@rider\.local \/ (\S+)/.exec(log)?.[1];
    const signIn = await json('/auth', {
      method: 'POST',
      body: JSON.stringify({ email: 'rider@rider.local', password }),
    });
    const listings = await json('/listings', { headers: { 'x-auth-token': signIn.token } });
    expect(listings.counts).toEqual({ tricklists: 2, spotlists: 1 });
    const premium = /premium: premium@rider\.local \/ (\S+)/.exec(log)?.[1];
    const premiumSession = await json('/auth', {
      method: 'POST',
      body: JSON.stringify({ email: 'premium@rider.local', password: premium }),
    });
    expect(await json('/users/me/subscription', { headers: { 'x-auth-token': premiumSession.token } })).toMatchObject({
      plan: 'premium',
      status: 'active',
    });
  });

  it('takes a secret from its environment over .dev.vars', async () => {
    // A signed event for an account that does not exist: the provider is told 200 once the signature holds.
    const body = JSON.stringify({
      id: `evt_env_${Date.now()}`,
      type: 'subscription.activated',
      created: '2026-11-22T10:00:00Z',
      data: {
        userId: '000000000000000000000000',
        plan: 'premium',
        interval: 'month',
        status: 'active',
        renewsAt: null,
      },
    });
    const res = await api('/webhooks/payments', {
      method: 'POST',
      headers: { 'x-signature': createHmac('sha256', webhookSecret).update(body).digest('hex') },
      body,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('takes a new rider through register, sign-in, refusals and deletion', async () => {
    const email = `e2e-${Date.now()}@rider.test`;
    const registered = await api('/users', {
      method: 'POST',
      body: JSON.stringify({ name: 'E2E Rider', email, password: 'e2e-password' }),
    });
    expect(registered.status).toBe(201);
    const signedIn = await api('/auth', { method: 'POST', body: JSON.stringify({ email, password: 'e2e-password' }) });
    const { token, user } = (await signedIn.json()) as { token: string; user: { _id: string } };
    expect((await api('/users/me', { headers: { 'x-auth-token': token } })).status).toBe(200);

    const refusals = await Promise.all([
      api('/users/me').then(async (r) => [r.status, await r.text()]),
      api('/users/me', { headers: { 'x-auth-token': 'junk' } }).then(async (r) => [r.status, await r.text()]),
      api('/admin/users').then(async (r) => [r.status, await r.text()]),
      api('/admin/users', { headers: { 'x-auth-token': token } }).then(async (r) => [r.status, await r.text()]),
      api('/users/000000000000000000000000', { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }).then(
        async (r) => [r.status, await r.text()],
      ),
    ]);
    expect(refusals).toEqual([
      [401, 'Access denied. No token provided.'],
      [400, 'Invalid token.'],
      [401, 'Access denied.'],
      [403, 'Access denied. Admin only.'],
      [403, 'Access denied.'],
    ]);

    const deleted = await api(`/users/${user._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await deleted.json()).toEqual({ deleted: true, userId: user._id });
    expect(
      (await api('/auth', { method: 'POST', body: JSON.stringify({ email, password: 'e2e-password' }) })).status,
    ).toBe(400);
  });

  it('speaks a voice reply to a WebSocket opened through the Worker, as valid 44.1 kHz 128 kbps MP3', {
    timeout: 120_000,
  }, async () => {
    if (!stack || stack.exitCode !== null) await startStack();
    const deadline = Date.now() + 30_000;
    while (!/\[voice\] ready/.test(log)) {
      if (Date.now() > deadline) throw new Error(`the voice box did not start:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(log).toContain(`VOICE_URL=http://127.0.0.1:${ports.voice}`);

    const client = new VoiceClient(`ws://127.0.0.1:${ports.worker}/voice/ws`);
    const sessionId = await client.ready();
    const voiceUrl = `http://127.0.0.1:${ports.voice}`;
    expect(await (await fetch(`${voiceUrl}/health`)).json()).toMatchObject({ ok: true, sessions: 1 });
    expect((await speak(voiceUrl, sessionId, 'Hey! Sooo stoked you are here. Wanna ride?')).status).toBe(202);
    await client.next('turn_end', 3);

    const file = join(dataDir, 'reply.mp3');
    writeFileSync(file, Buffer.concat(client.of('tts_audio_chunk').map((c) => Buffer.from(c.audio, 'base64'))));
    const { frames, rest } = splitFrames(readFileSync(file));
    expect(rest).toHaveLength(0);
    expect(frames.length).toBeGreaterThan(40);
    expect(new Set(frames.map((f) => `${f.header.layer}/${f.header.sampleRate}/${f.header.bitrate}`))).toEqual(
      new Set(['3/44100/128000']),
    );

    // The client's barge-in travels back through the proxy too.
    await speak(voiceUrl, sessionId, 'This one gets cut off before it ends, because you talk over it.');
    await client.next('tts_audio_chunk', client.of('tts_audio_chunk').length + 1);
    client.send({ type: 'barge-in' });
    expect((await client.next('barge_in_detected')).turnId).toEqual(expect.any(String));
    client.close();
  });

  it('reports the database down within seconds, recovers without a Worker restart, and keeps data across a full restart', {
    timeout: 180_000,
  }, async () => {
    // The stack the first test started serves on; started here only when this test runs alone.
    if (!stack || stack.exitCode !== null) await startStack();
    const email = `persist-${Date.now()}@rider.test`;
    expect(
      (
        await api('/users', {
          method: 'POST',
          body: JSON.stringify({ name: 'Persistent', email, password: 'persist-pass' }),
        })
      ).status,
    ).toBe(201);

    process.kill(devdbPid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    let started = Date.now();
    const down = await api('/health');
    expect(Date.now() - started).toBeLessThan(UNREACHABLE_ANSWER_MS);
    expect(await down.json()).toMatchObject({ ok: false, db: 'down' });
    started = Date.now();
    const unavailable = await api('/auth', {
      method: 'POST',
      body: JSON.stringify({ email, password: 'persist-pass' }),
    });
    expect(Date.now() - started).toBeLessThan(UNREACHABLE_ANSWER_MS);
    expect(unavailable.status).toBe(503);

    const devdb = spawn(
      process.execPath,
      ['--import', 'tsx', 'devdb/src/cli.ts', '--port', String(ports.db), '--data', dataDir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) =>
      devdb.stdout!.on('data', (chunk: Buffer) => /devdb ready/.test(chunk.toString()) && resolve()),
    );
    expect(await (await api('/health')).json()).toMatchObject({ ok: true, db: 'up' });
    devdb.kill('SIGTERM');
    await new Promise((resolve) => devdb.on('exit', resolve));

    // Ctrl-C stops the voice box with the rest of the stack.
    await stopStack();
    await expect(fetch(`http://127.0.0.1:${ports.voice}/health`)).rejects.toThrow();
    await startStack();
    const again = await api('/auth', { method: 'POST', body: JSON.stringify({ email, password: 'persist-pass' }) });
    expect(again.status).toBe(200);
  });
});
