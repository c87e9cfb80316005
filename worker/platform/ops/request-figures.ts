import { LIMITS } from '../limits';
import { isFigurePoint } from './figure-names';

/** A data point as worker/platform/ops/metrics.ts lays it out, with the time it was written. */
export interface RequestPoint {
  at: number;
  blobs: (string | null)[];
  doubles: number[];
}

export interface RouteFigures {
  method: string;
  route: string;
  requests: number;
  p50Ms: number;
  p95Ms: number;
  /** Shares of the route's requests answered 5xx and 4xx, 0..1. */
  serverErrorShare: number;
  clientErrorShare: number;
}

export interface RequestFigures {
  from: string;
  to: string;
  /** Busiest first. */
  routes: RouteFigures[];
  /** Every minute of the window, oldest first, with no traffic as 0. */
  perMinute: { minute: string; requests: number; serverErrors: number }[];
}

const MINUTE_MS = 60_000;

/** The nearest-rank percentile: the smallest value with at least the share `p` of all values at or below it. */
export function nearestRank(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

/** Per method and route pattern, and per minute, the figures of the last hour before `now` (LIMITS.ops.figuresWindowMs). */
export function requestFigures(points: readonly RequestPoint[], now: number): RequestFigures {
  const from = now - LIMITS.ops.figuresWindowMs;
  const firstMinute = Math.floor(from / MINUTE_MS) * MINUTE_MS;
  const perMinute = Array.from({ length: Math.ceil((now - firstMinute) / MINUTE_MS) }, (_, i) => ({
    minute: new Date(firstMinute + i * MINUTE_MS).toISOString(),
    requests: 0,
    serverErrors: 0,
  }));
  const byRoute = new Map<string, { method: string; route: string; durations: number[]; s5: number; s4: number }>();
  for (const point of points) {
    if (point.at < from || point.at > now) continue;
    const [route = '', method = ''] = point.blobs.map((b) => b ?? '');
    // The real-time and moderation figures share the dataset; they are not requests.
    if (isFigurePoint(route)) continue;
    const [durationMs = 0, status = 0] = point.doubles;
    const key = `${method} ${route}`;
    const entry = byRoute.get(key) ?? { method, route, durations: [], s5: 0, s4: 0 };
    byRoute.set(key, entry);
    entry.durations.push(durationMs);
    if (status >= 500) entry.s5++;
    else if (status >= 400) entry.s4++;
    const minute = perMinute[Math.min(perMinute.length - 1, Math.floor((point.at - firstMinute) / MINUTE_MS))]!;
    minute.requests++;
    if (status >= 500) minute.serverErrors++;
  }
  const routes = [...byRoute.values()].map(({ method, route, durations, s5, s4 }) => ({
    method,
    route,
    requests: durations.length,
    p50Ms: nearestRank(durations, 0.5),
    p95Ms: nearestRank(durations, 0.95),
    serverErrorShare: s5 / durations.length,
    clientErrorShare: s4 / durations.length,
  }));
  routes.sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route) || a.method.localeCompare(b.method));
  return { from: new Date(from).toISOString(), to: new Date(now).toISOString(), routes, perMinute };
}
