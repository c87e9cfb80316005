// Runs the Worker in workerd through Miniflare's own server, with no `wrangler dev` proxy in front: every request
// and WebSocket frame reaches the Worker as in production, with no second workerd relaying it (README, Local
// stack). It takes the `wrangler dev` arguments the local stack uses; it does not reload on changes.
// Run: tsx scripts/workerd-direct.ts --ip 127.0.0.1 --port 8787 [--persist-to DIR] [--log-level warn] [--var NAME:VALUE ...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { type DirectArguments, directArguments } from './workerd-direct-args';
import { directOptions, type WorkerBuild } from './workerd-direct-options';

/**
 * Bundles the Worker of `config` into `outdir` as a deploy does (no Docker needed: the voice box image is not built);
 * `entry` in place of the config's main, for a bench that adds a route to the Worker (bench/data-export-worker.ts).
 */
export function buildWorker(outdir: string, options: { config?: string; entry?: string } = {}): WorkerBuild {
  const { config = 'wrangler.toml', entry } = options;
  const built = spawnSync(
    'node_modules/.bin/wrangler',
    ['deploy', ...(entry ? [entry] : []), '--dry-run', '--outdir', outdir, '--config', config, '--env', ''],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        WRANGLER_DOCKER_BIN: 'scripts/no-docker.sh',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_SEND_METRICS: 'false',
      },
    },
  );
  if (built.status !== 0) throw new Error(`the Worker did not build (wrangler exited with ${built.status})`);
  // wrangler names the bundle after its entry; the runners serve index.js.
  const bundle = entry ? basename(entry).replace(/\.[cm]?[jt]s$/, '') : 'index';
  if (bundle !== 'index') renameSync(join(outdir, `${bundle}.js`), join(outdir, 'index.js'));
  const { workerOptions } = unstable_getMiniflareWorkerOptions(config, undefined, {
    overrides: { enableContainers: false },
  });
  return { outdir, workerOptions: workerOptions as unknown as Record<string, unknown> };
}

async function main(): Promise<void> {
  const args = directArguments(process.argv.slice(2));
  const outdir = mkdtempSync(join(tmpdir(), 'rider-direct-build-'));
  const build = buildWorker(outdir);
  // A bench profiling the isolate maps its frames back to sources through this bundle's map (bench/isolate-profile.ts).
  console.log(`Bundle in ${outdir}`);
  await serveUntilStopped(build, args);
}

/** Serves a built Worker in workerd through Miniflare's own server until SIGINT or SIGTERM, then removes the build. */
export async function serveUntilStopped(build: WorkerBuild, args: DirectArguments): Promise<void> {
  const mf = new Miniflare(directOptions(build, args));
  const url = await mf.ready;
  console.log(`Ready on ${url.origin}`);
  const stop = async () => {
    await mf.dispose();
    rmSync(build.outdir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`[direct] ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
