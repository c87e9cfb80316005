// Runs the Worker in workerd through Miniflare's own server, with no `wrangler dev` proxy in front: every request
// and WebSocket frame reaches the Worker as in production, with no second workerd relaying it (README, Local
// stack). It takes the `wrangler dev` arguments the local stack uses; it does not reload on changes.
// Run: tsx scripts/workerd-direct.ts --ip 127.0.0.1 --port 8787 [--persist-to DIR] [--log-level warn] [--var NAME:VALUE ...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { Log, LogLevel, Miniflare, type WorkerOptions } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { type DirectLogLevel, directArguments } from './workerd-direct-args';

// What wrangler emits beside the bundle, by extension: the modules its [[rules]] made text, data or wasm.
const MODULE_TYPES: Record<string, 'Text' | 'Data' | 'CompiledWasm'> = {
  '.js': 'Text',
  '.css': 'Text',
  '.txt': 'Text',
  '.html': 'Text',
  '.sql': 'Text',
  '.bin': 'Data',
  '.wasm': 'CompiledWasm',
};

// Miniflare's levels for wrangler's names (Miniflare has none between info and debug for wrangler's 'log').
const MINIFLARE_LEVELS: Record<DirectLogLevel, LogLevel> = {
  none: LogLevel.NONE,
  error: LogLevel.ERROR,
  warn: LogLevel.WARN,
  info: LogLevel.INFO,
  log: LogLevel.INFO,
  debug: LogLevel.DEBUG,
};

/** Bundles the Worker as a deploy does (no Docker needed: the voice box image is not built). */
function build(outdir: string): void {
  const built = spawnSync(
    'node_modules/.bin/wrangler',
    ['deploy', '--dry-run', '--outdir', outdir, '--config', 'wrangler.toml', '--env', ''],
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
}

function modulesOf(outdir: string): NonNullable<Extract<WorkerOptions, { modules: unknown[] }>['modules']> {
  const extra = readdirSync(outdir).filter((name) => name !== 'index.js' && MODULE_TYPES[extname(name)]);
  return [
    { type: 'ESModule', path: join(outdir, 'index.js') },
    ...extra.map((name) => ({ type: MODULE_TYPES[extname(name)]!, path: join(outdir, name) })),
  ];
}

async function main(): Promise<void> {
  const args = directArguments(process.argv.slice(2));
  const outdir = mkdtempSync(join(tmpdir(), 'rider-direct-build-'));
  build(outdir);
  const { workerOptions } = unstable_getMiniflareWorkerOptions('wrangler.toml', undefined, {
    overrides: { enableContainers: false },
  });
  const mf = new Miniflare({
    ...workerOptions,
    name: 'rider-service',
    modules: modulesOf(outdir),
    modulesRoot: outdir,
    modulesRules: undefined,
    bindings: { ...workerOptions.bindings, ...args.vars },
    host: args.host,
    port: args.port,
    inspectorPort: args.inspectorPort,
    defaultPersistRoot: args.persistTo,
    // Cron Triggers fire by hand at /cdn-cgi/handler/scheduled?cron=... (wrangler's /__scheduled is its own).
    unsafeTriggerHandlers: true,
    // Offline starts stay quiet, as `npm run dev` keeps them: no Request.cf download.
    cf: false,
    log: new Log(MINIFLARE_LEVELS[args.logLevel]),
  } as ConstructorParameters<typeof Miniflare>[0]);
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

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`[direct] ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
