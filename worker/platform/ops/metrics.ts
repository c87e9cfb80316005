import type { Env } from '../env';

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

export function recordRequest(env: Env | undefined, metric: RequestMetric): void {
  // Without the binding (or an env, as in `app.request()`) (a deploy that has not added it yet) requests are only logged, never refused.
  env?.METRICS?.writeDataPoint({
    blobs: [metric.route, metric.method, statusClass(metric.status)],
    doubles: [metric.durationMs, metric.status, metric.dbMs],
    indexes: [metric.route.slice(0, 96)],
  });
}
