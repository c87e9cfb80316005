import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort, isAlive, startDevDbByHand, stopProcess } from './processes';

// `npm run dev` when a dev database is already on its port, e.g. one left over from the
// README's recovery step (`npm run devdb` by hand).

const scratch = mkdtempSync(join(tmpdir(), 'rider-leftover-'));
const running: ChildProcess[] = [];
afterEach(async () => {
  for (const child of running.splice(0).reverse()) await stopProcess(child, 'SIGINT');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runDev(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    env: {
      ...process.env,
      MONGODB_URI: '',
      WRANGLER_STATE: join(scratch, 'wrangler-state'),
      // Port 0: the voice box takes any free port, so parallel runs never collide on its default.
      VOICE_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function until(condition: () => boolean, what: () => string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm run dev with a dev database already on the port', () => {
  it('reuses one serving the same folder and leaves it running on Ctrl-C', { timeout: 120_000 }, async () => {
    const [dbPort, workerPort] = [await freePort(), await freePort()];
    const dataDir = join(scratch, 'same');
    const byHand = await startDevDbByHand(dbPort, dataDir);
    running.push(byHand);

    const dev = runDev({
      PORT: String(workerPort),
      DB_PORT: String(dbPort),
      DEVDB_DATA: dataDir,
      INSPECTOR_PORT: String(await freePort()),
    });
    await until(() => /Ready on http/.test(dev.output()) || dev.child.exitCode !== null, dev.output);
    expect(dev.output()).toContain(`dev database pid ${byHand.pid} at mongodb://127.0.0.1:${dbPort}: already serving`);
    const health = await fetch(`http://127.0.0.1:${workerPort}/api/health`);
    expect(await health.json()).toMatchObject({ ok: true, db: 'up' });

    await stopProcess(dev.child, 'SIGINT');
    expect(isAlive(byHand.pid!)).toBe(true);
    const client = new MongoClient(`mongodb://127.0.0.1:${dbPort}`, { serverSelectionTimeoutMS: 2000 });
    try {
      // The demo accounts scripts/seed.ts creates: admin, rider and premium rider.
      expect(await client.db('rider').collection('users').countDocuments()).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('stops with one line naming the process that holds the port', { timeout: 60_000 }, async () => {
    const [dbPort, workerPort] = [await freePort(), await freePort()];
    const byHand = await startDevDbByHand(dbPort, join(scratch, 'other'));
    running.push(byHand);

    const dev = runDev({
      PORT: String(workerPort),
      DB_PORT: String(dbPort),
      DEVDB_DATA: join(scratch, 'mine'),
      INSPECTOR_PORT: String(await freePort()),
    });
    const code = await new Promise((resolve) => dev.child.on('exit', resolve));
    expect(code).toBe(1);
    const lines = dev.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`port ${dbPort} on 127.0.0.1 is in use by process ${byHand.pid}`);
    expect(lines[0]).toContain(`kill ${byHand.pid}`);
    expect(lines[0]).toContain('the Worker was not started');
    expect(isAlive(byHand.pid!)).toBe(true);
  });

  it('names the process when the one serving the folder does not answer', { timeout: 60_000 }, async () => {
    const dataDir = join(scratch, 'hung');
    const byHand = await startDevDbByHand(await freePort(), dataDir);
    running.push(byHand);
    process.kill(byHand.pid!, 'SIGSTOP');
    try {
      const dev = runDev({ PORT: String(await freePort()), DB_PORT: String(await freePort()), DEVDB_DATA: dataDir });
      const code = await new Promise((resolve) => dev.child.on('exit', resolve));
      expect(code).toBe(1);
      const lines = dev.output().trim().split('\n');
      expect(lines).toEqual([
        expect.stringContaining(`is in use by process ${byHand.pid}: stop it with \`kill ${byHand.pid}\``),
      ]);
      expect(lines[0]).toContain('the Worker was not started');
    } finally {
      process.kill(byHand.pid!, 'SIGCONT');
    }
  });
});
