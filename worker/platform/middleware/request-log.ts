import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import type { Env } from '../env';
import { setAnswerHeaders } from '../http/answer-headers';
import { log } from '../ops/log-line';
import { recordRequest } from '../ops/metrics';
import { requestIdOf } from '../ops/request-id';
import { runInRequestScope } from '../ops/request-scope';
import { newRequestTiming, type RequestTiming, roundedMs } from '../ops/request-timing';
import type { TokenClaims } from '../tokens/token';

/** What `requestLog()` sets: the request's id (also answered as `x-request-id`) and its database timing. */
export type RequestLogVariables = { requestId: string; timing: RequestTiming };

/**
 * One structured log line and one metrics data point per request (docs/operations.md), and `x-request-id` on
 * the answer so a client's report finds its line. Mounted first, so every other middleware's time counts.
 * @example app.use('*', requestLog())
 */
export function requestLog() {
  return createMiddleware<{ Bindings: Env; Variables: RequestLogVariables & { user?: TokenClaims } }>(
    async (c, next) => {
      const requestId = requestIdOf(c.req.raw);
      const timing = newRequestTiming();
      c.set('requestId', requestId);
      c.set('timing', timing);
      const started = performance.now();
      // Everything the request runs, its background work included, logs under its id (worker/platform/ops/request-scope.ts).
      const scope: { requestId: string; riderId?: string } = { requestId };
      await runInRequestScope(scope, next);
      const durationMs = roundedMs(performance.now() - started);
      setAnswerHeaders(c, { 'x-request-id': requestId });
      const route = routePath(c, -1);
      const status = c.res.status;
      const riderId = c.get('user')?._id ?? scope.riderId;
      log({
        kind: 'request',
        requestId,
        method: c.req.method,
        route,
        status,
        durationMs,
        ...(riderId ? { riderId } : {}),
        dbMs: roundedMs(timing.dbMs),
        gatewayMs: roundedMs(timing.gatewayMs),
        dbCalls: timing.dbCalls,
      });
      recordRequest(c.env, { route, method: c.req.method, status, durationMs, dbMs: timing.dbMs }, waitUntilOf(c));
    },
  );
}

/** The request's `waitUntil`, or none where there is no execution context (`app.request()` without one). */
function waitUntilOf(c: {
  executionCtx: { waitUntil(work: Promise<unknown>): void };
}): ((work: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (work) => ctx.waitUntil(work);
  } catch {
    return undefined;
  }
}
