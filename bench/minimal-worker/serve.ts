// Serves the minimal Worker (bench/minimal-worker/index.ts) in workerd through Miniflare's own server, as the direct
// runner serves the project (scripts/workerd-direct.ts): bundled as a deploy does, no proxy in front.
// Run: tsx bench/minimal-worker/serve.ts --port 8788 --var MONGODB_URI:mongodb://... --var JWT_SECRET:...
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { buildWorker } from '../../scripts/workerd-direct';
import { directArguments } from '../../scripts/workerd-direct-args';
import { directOptions } from '../../scripts/workerd-direct-options';

async function main(): Promise<void> {
  const args = directArguments(process.argv.slice(2));
  const outdir = mkdtempSync(join(tmpdir(), 'minimal-worker-build-'));
  const mf = new Miniflare(directOptions(buildWorker(outdir, { config: 'bench/minimal-worker/wrangler.toml' }), args));
  const url = await mf.ready;
  console.log(`Ready on ${url.origin}`);
  const stop = async () => {
    await mf.dispose();
    rmSync(outdir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(`[minimal] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
