import type { Env } from '../env';
import { standInPoints } from '../ops/metrics-stand-in-dataset';
import { type RequestFigures, requestFigures } from '../ops/request-figures';

export type RequestFiguresReport = RequestFigures & { source: 'local-stand-in' | 'analytics-engine'; note: string };

const PRODUCTION_NOTE =
  'This Worker writes its request figures to Workers Analytics Engine (the METRICS binding), which only the SQL API reads: ' +
  'run the queries in docs/operations.md ("Metrics") for p50/p95 latency and error rates per route.';
const LOCAL_NOTE =
  'LOCAL: the last hour of requests the local metrics stand-in holds (durable-objects/metrics-stand-in.ts).';

/** The last hour per route from the local stand-in, or, where none is bound, where production's figures are read. */
export async function requestFiguresReport(env: Env, now: number): Promise<RequestFiguresReport> {
  const points = await standInPoints(env);
  if (points === null) {
    const empty = requestFigures([], now);
    return { ...empty, routes: [], perMinute: [], source: 'analytics-engine', note: PRODUCTION_NOTE };
  }
  return { ...requestFigures(points, now), source: 'local-stand-in', note: LOCAL_NOTE };
}
