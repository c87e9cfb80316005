import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('the staging bundle', () => {
  it('builds offline with `wrangler deploy --dry-run --env staging`', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'rider-staging-'));
    try {
      // No Docker engine here: scripts/no-docker.sh stands in for the docker CLI, so the voice box image is not built.
      const run = spawnSync('npx', ['wrangler', 'deploy', '--dry-run', '--env', 'staging', '--outdir', outdir], {
        encoding: 'utf8',
        env: {
          ...process.env,
          WRANGLER_DOCKER_BIN: fileURLToPath(new URL('../../../scripts/no-docker.sh', import.meta.url)),
          WRANGLER_SEND_METRICS: 'false',
          CI: '1',
        },
        timeout: 180_000,
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('env.MONGODB_DB ("rider_staging")');
      expect(existsSync(join(outdir, 'index.js'))).toBe(true);
      // durable-objects/encoded-documents.ts imports the driver's DocumentSequence by its internal path: the bundle
      // must hold one copy of that class, or the driver would send a sequence made with the other as a document.
      const bundle = readFileSync(join(outdir, 'index.js'), 'utf8');
      expect(bundle.match(/\bDocumentSequence\d*\s*=\s*class\b|\bclass\s+DocumentSequence\d*\b/g)).toHaveLength(1);
      expect(bundle.match(/\bisDocumentSequence\b/)).not.toBeNull();
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 200_000);
});
