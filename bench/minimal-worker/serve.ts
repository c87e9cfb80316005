// Serves the minimal Worker (bench/minimal-worker/index.ts) in workerd through Miniflare's own server, as the direct
// runner serves the project (scripts/workerd-direct.ts): bundled as a deploy does, no proxy in front.
// Run: tsx bench/minimal-worker/serve.ts --port 8788 --var MONGODB_URI:mongodb://... --var JWT_SECRET:...
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWorker, serveUntilStopped } from '../../scripts/workerd-direct';
import { directArguments } from '../../scripts/workerd-direct-args';

async function main(): Promise<void> {
  const args = directArguments(process.argv.slice(2));
  const outdir = mkdtempSync(join(tmpdir(), 'minimal-worker-build-'));
  // A bench profiling the isolate maps its frames back to sources through this bundle's map (bench/isolate-profile.ts).
  console.log(`Bundle in ${outdir}`);
  await serveUntilStopped(buildWorker(outdir, { config: 'bench/minimal-worker/wrangler.toml' }), args);
}

main().catch((error) => {
  console.error(`[minimal] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
