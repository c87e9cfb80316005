// LOCAL ONLY: how the local stack and the test stacks get the metrics stand-in (durable-objects/metrics-stand-in.ts)
// in place of Analytics Engine. Miniflare simulates METRICS by discarding every point and nothing reads them back, so
// locally METRICS goes unbound and METRICS_STAND_IN is bound; worker/platform/ops/metrics.ts then writes to the
// stand-in and /admin/ops reads it. wrangler.toml (production, staging) never binds the stand-in.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export const STAND_IN_BINDING = 'METRICS_STAND_IN';
export const STAND_IN_CLASS = 'MetricsStandIn';

/** Miniflare options over wrangler.toml's (scripts/workerd-direct-options.ts): the stand-in bound, METRICS not. */
export function localMetricsOptions(durableObjects: Record<string, unknown> = {}) {
  return {
    durableObjects: { ...durableObjects, [STAND_IN_BINDING]: STAND_IN_CLASS },
    analyticsEngineDatasets: undefined,
  };
}

/** wrangler.toml's text for `wrangler dev`: its top-level METRICS dataset left out, the stand-in's binding added. */
export function localWranglerToml(production: string): string {
  const withoutDataset = production.replace(/^\[\[analytics_engine_datasets\]\]\n(?:\w+\s*=.*\n)*/m, '');
  return `${withoutDataset}
# LOCAL ONLY, written by scripts/dev.ts from wrangler.toml (scripts/local-metrics.ts): the metrics stand-in in place of METRICS.
[[durable_objects.bindings]]
name = "${STAND_IN_BINDING}"
class_name = "${STAND_IN_CLASS}"
`;
}

/** Where `npm run dev` writes its configuration: beside wrangler.toml, so every relative path in it holds. */
export const LOCAL_WRANGLER_CONFIG = 'wrangler.local.toml';

/** Writes the local configuration `wrangler dev` runs with, from wrangler.toml as it is now. */
export function writeLocalWranglerConfig(): string {
  // Written beside and renamed into place: several local stacks start at once in the tests, and a wrangler reading
  // the file while another start rewrote it found it empty ("Missing entry-point").
  const staged = `${LOCAL_WRANGLER_CONFIG}.${process.pid}`;
  writeFileSync(staged, localWranglerToml(readFileSync('wrangler.toml', 'utf8')));
  renameSync(staged, LOCAL_WRANGLER_CONFIG);
  return LOCAL_WRANGLER_CONFIG;
}
