import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRealtimeStack } from '../support/realtime-stack';

describe('a local stack that does not start', () => {
  it('leaves no state folder behind (it would hold memory until the next reboot)', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'stack-start-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = parent;
    try {
      // A bundle folder that does not exist: Miniflare's options cannot be made, so the Worker never starts.
      const build = { outdir: join(parent, 'no-bundle-here'), workerOptions: {} };
      await expect(startRealtimeStack({ build })).rejects.toThrow(/no-bundle-here/);
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe('a local stack under wrangler dev', () => {
  it('is ready at --log-level warn, where wrangler prints no "Ready on" line', async () => {
    const stack = await startRealtimeStack({ logLevel: 'warn' });
    try {
      const res = await fetch(`${stack.url}/api/openapi.json`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    } finally {
      await stack.stop();
    }
  }, 240_000);
});
