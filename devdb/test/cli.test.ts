import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevDb } from '../src/server.js';
import { readServerRecord } from '../src/server-file.js';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'devdb-cli-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function runCli(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await run(process.execPath, ['--import', 'tsx', cli, ...args], { timeout: 20_000 });
    return { code: 0, stderr: '' };
  } catch (err) {
    const failed = err as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe('devdb cli errors', () => {
  it('reports a taken port in one line naming the holder, without the usage text', async () => {
    const holder = await startDevDb({ port: 0, quiet: true });
    try {
      const { code, stderr } = await runCli(['--port', String(holder.port), '--memory']);
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        expect.stringContaining(`devdb: port ${holder.port} on 127.0.0.1 is in use by process ${process.pid}`),
      ]);
      expect(stderr).toContain(`kill ${process.pid}`);
      expect(stderr).not.toContain('usage:');
    } finally {
      await holder.close();
    }
  });

  it('prints the usage text for bad arguments', async () => {
    for (const args of [['--port', 'abc'], ['--bogus']]) {
      const { code, stderr } = await runCli(args);
      expect(code).toBe(2);
      expect(stderr).toContain('usage: tsx devdb/src/cli.ts');
    }
  });
});

describe('server record in the data folder', () => {
  it('names the serving process and its address while it runs, and goes when it stops', async () => {
    const dataDir = path.join(scratch, 'record');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--data', dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const uri = await new Promise<string>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        const ready = /devdb ready (\S+)/.exec(chunk.toString());
        if (ready) resolve(ready[1]!);
      }),
    );
    expect(readServerRecord(dataDir)).toEqual({ pid: child.pid, uri });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(readServerRecord(dataDir)).toBeUndefined();
  });
});
