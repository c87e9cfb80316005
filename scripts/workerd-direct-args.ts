// The `wrangler dev` arguments scripts/workerd-direct.ts takes, so the local stack starts either with the same list.

/** `wrangler dev --log-level`'s values; below `info` no request is logged, which costs workerd a call to Node each. */
export const LOG_LEVELS = ['none', 'error', 'warn', 'info', 'log', 'debug'] as const;
export type DirectLogLevel = (typeof LOG_LEVELS)[number];

/**
 * Whether the Worker's console line of `lineLevel` (workerd's: log, info, debug, warn, error) prints at `level`: warn
 * and error lines down to their own level, every other line at `info` and above, as `wrangler dev --log-level` hides
 * them below it. Miniflare's own handler prints every line whatever the level, and a line printed costs the runner a
 * write and whoever reads its output a wake-up: per request, when the Worker logs one line each.
 */
export function printsAt(level: DirectLogLevel, lineLevel: string): boolean {
  const needs: DirectLogLevel = lineLevel === 'error' ? 'error' : lineLevel === 'warn' ? 'warn' : 'info';
  // LOG_LEVELS runs from the quietest to the most talkative.
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(needs);
}

/**
 * Where the METRICS points go: `stand-in` (the default) keeps them for /admin/ops (scripts/local-metrics.ts);
 * `discard` leaves wrangler.toml's dataset, which Miniflare drops in-process as Analytics Engine writes cost nothing
 * on the request path: what a bench measuring the request's cost runs with.
 */
export const METRICS_MODES = ['stand-in', 'discard'] as const;
export type DirectMetrics = (typeof METRICS_MODES)[number];

export interface DirectArguments {
  host: string;
  port: number;
  persistTo: string | undefined;
  inspectorPort: number | undefined;
  logLevel: DirectLogLevel;
  metrics: DirectMetrics;
  vars: Record<string, string>;
}

/** Reads the `wrangler dev` options the local stack passes; any other is refused rather than silently ignored. */
export function directArguments(argv: string[]): DirectArguments {
  const parsed: DirectArguments = {
    host: '127.0.0.1',
    port: 8787,
    persistTo: undefined,
    inspectorPort: undefined,
    logLevel: 'info',
    metrics: 'stand-in',
    vars: {},
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i]!, argv[i + 1]];
    if (flag === 'dev' || flag === '--test-scheduled') continue;
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    if (flag === '--ip') parsed.host = value;
    else if (flag === '--port') parsed.port = Number(value);
    else if (flag === '--persist-to') parsed.persistTo = value;
    else if (flag === '--inspector-port') parsed.inspectorPort = Number(value);
    else if (flag === '--log-level') {
      if (!LOG_LEVELS.includes(value as DirectLogLevel))
        throw new Error(`--log-level takes one of ${LOG_LEVELS.join(', ')}, got ${value}`);
      parsed.logLevel = value as DirectLogLevel;
    } else if (flag === '--metrics') {
      if (!METRICS_MODES.includes(value as DirectMetrics))
        throw new Error(`--metrics takes one of ${METRICS_MODES.join(', ')}, got ${value}`);
      parsed.metrics = value as DirectMetrics;
    } else if (flag === '--var') {
      const at = value.indexOf(':');
      if (at < 1) throw new Error(`--var takes NAME:VALUE, got ${value}`);
      parsed.vars[value.slice(0, at)] = value.slice(at + 1);
    } else throw new Error(`${flag} is not an option of the direct runner`);
  }
  return parsed;
}
