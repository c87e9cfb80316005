// The Miniflare options that serve a built Worker the way scripts/workerd-direct.ts does, without importing
// wrangler: the test stacks start many of these from one build, each in the test's own process.
import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import {
  convertV4MiniflareOptions,
  Log,
  LogLevel,
  type MiniflareOptions,
  type V4MiniflareOptions,
  type V4WorkerOptions,
} from 'miniflare';
import { localMetricsOptions } from './local-metrics';
import { type DirectArguments, type DirectLogLevel, printsAt } from './workerd-direct-args';

/** A Worker bundled as a deploy does, and the bindings wrangler.toml (and .dev.vars) give it. */
export interface WorkerBuild {
  outdir: string;
  /** wrangler's `unstable_getMiniflareWorkerOptions` for wrangler.toml: plain data, so it can cross processes. */
  workerOptions: Record<string, unknown>;
}

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

function modulesOf(outdir: string): NonNullable<Extract<V4WorkerOptions, { modules: unknown[] }>['modules']> {
  const extra = readdirSync(outdir).filter((name) => name !== 'index.js' && MODULE_TYPES[extname(name)]);
  return [
    { type: 'ESModule', path: join(outdir, 'index.js') },
    ...extra.map((name) => ({ type: MODULE_TYPES[extname(name)]!, path: join(outdir, name) })),
  ];
}

/** Miniflare serving `build` on the arguments' address with their `--var` settings over wrangler.toml's. */
export function directOptions(
  build: WorkerBuild,
  args: DirectArguments,
  extra: Partial<V4MiniflareOptions> = {},
): MiniflareOptions {
  const workerOptions = build.workerOptions as V4WorkerOptions & { bindings?: Record<string, unknown> };
  // wrangler hands over Miniflare 4's option shape; Miniflare 5 converts it to its own.
  return convertV4MiniflareOptions({
    ...workerOptions,
    name: 'rider-service',
    modules: modulesOf(build.outdir),
    modulesRoot: build.outdir,
    modulesRules: undefined,
    bindings: { ...workerOptions.bindings, ...args.vars },
    // LOCAL ONLY: the metrics stand-in in place of Miniflare's METRICS, which keeps nothing (scripts/local-metrics.ts).
    ...(args.metrics === 'stand-in'
      ? localMetricsOptions(workerOptions.durableObjects as Record<string, unknown> | undefined)
      : {}),
    host: args.host,
    port: args.port,
    inspectorPort: args.inspectorPort,
    resourcePersistencePath: args.persistTo,
    // Cron Triggers fire by hand at /cdn-cgi/handler/scheduled?cron=... (wrangler's /__scheduled is its own).
    unsafeTriggerHandlers: true,
    // Offline starts stay quiet, as `npm run dev` keeps them: no Request.cf download.
    cf: false,
    log: new Log(MINIFLARE_LEVELS[args.logLevel]),
    // As Miniflare's own handler prints them (errors and warnings to stderr), less what the level leaves out.
    handleStructuredLogs: ({ level, message }: { level: string; message: string }) => {
      if (!printsAt(args.logLevel, level)) return;
      if (level === 'error' || level === 'warn') console.error(message);
      else console.log(message);
    },
    ...extra,
  } as V4MiniflareOptions);
}
