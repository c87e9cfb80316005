import type { Env } from '../env';
import { standInDataset, type WaitUntil } from './metrics-stand-in-dataset';

/**
 * One Analytics Engine data point per request, laid out for the SQL API queries of docs/operations.md:
 * blob1 route pattern, blob2 method, blob3 status class (`2xx`…), double1 duration ms, double2 status,
 * double3 database ms; index1 the route pattern, so sampling keeps every route represented.
 */
export interface RequestMetric {
  route: string;
  method: string;
  status: number;
  durationMs: number;
  dbMs: number;
}

export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/** The dataset points go to: production's METRICS; locally, where only the stand-in is bound, the stand-in. */
function datasetOf(env: Env | undefined, waitUntil?: WaitUntil): AnalyticsEngineDataset | undefined {
  if (env?.METRICS) return env.METRICS;
  return env?.METRICS_STAND_IN ? standInDataset(env.METRICS_STAND_IN, waitUntil) : undefined;
}

export function recordRequest(env: Env | undefined, metric: RequestMetric, waitUntil?: WaitUntil): void {
  // Without the binding (or an env, as in `app.request()`) (a deploy that has not added it yet) requests are only logged, never refused.
  datasetOf(env, waitUntil)?.writeDataPoint({
    blobs: [metric.route, metric.method, statusClass(metric.status)],
    doubles: [metric.durationMs, metric.status, metric.dbMs],
    indexes: [metric.route.slice(0, 96)],
  });
}
