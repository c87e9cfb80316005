import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevDbHandle, startDevDb } from '../../devdb/src/server';
import { freePort, stopProcess } from './processes';

// `MONGODB_URI=…/mydb npm run dev`: setup and the Worker must use the database the URI names.

const scratch = mkdtempSync(join(tmpdir(), 'rider-external-'));
let server: DevDbHandle;
let dev: ChildProcess | undefined;
let output = '';

beforeAll(async () => {
  server = await startDevDb({ port: 0, quiet: true });
});
afterAll(async () => {
  await stopProcess(dev, 'SIGINT');
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('npm run dev against an external database', () => {
  it('seeds, indexes and serves the database in the URI path', { timeout: 120_000 }, async () => {
    const workerPort = await freePort();
    // NODE_ENV=test (set by vitest) would itself stop miniflare's lookup: start as a developer does.
    const { MONGODB_DB: _db, NODE_ENV: _nodeEnv, ...env } = process.env;
    dev = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
      env: {
        ...env,
        MONGODB_URI: `${server.uri}/mydb`,
        PORT: String(workerPort),
        INSPECTOR_PORT: String(await freePort()),
        VOICE_PORT: String(await freePort()),
        DEVDB_DATA: join(scratch, 'devdb'),
        WRANGLER_STATE: join(scratch, 'wrangler-state'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!/Ready on http/.test(output)) {
      if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`stack did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(output).toContain('indexes applied to mydb');

    const email = `external-${Date.now()}@rider.test`;
    const registered = await fetch(`http://127.0.0.1:${workerPort}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'External', email, password: 'external-pass' }),
    });
    expect(registered.status).toBe(201);
    const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 3000 });
    try {
      expect(await client.db('mydb').collection('users').countDocuments({ email })).toBe(1);
      expect(await client.db('rider').collection('users').countDocuments()).toBe(0);
    } finally {
      await client.close();
    }
    const book = JSON.parse(readFileSync(join(scratch, 'devdb', 'dev-credentials.json'), 'utf8'));
    expect(Object.keys(book)).toEqual([`${server.uri.replace('mongodb://', '')}/mydb`]);
    // An offline start prints no stack traces (scripts/dev.ts turns off wrangler's lookups).
    expect(output).not.toMatch(/^\s+at |ENOTFOUND|Unable to fetch the `Request.cf` object/m);
  });
});
