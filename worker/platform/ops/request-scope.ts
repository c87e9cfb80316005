import { AsyncLocalStorage } from 'node:async_hooks';

/** The request a piece of work runs for, and the rider it turned out to be for (once a check found a valid token). */
interface RequestScope {
  requestId: string;
  riderId?: string;
}

/**
 * The request a piece of work runs for, so a log line written deep in a service, or in its background work after
 * the answer, carries the request's id without every function passing it on. Set by the request log middleware.
 */
const requestScope = new AsyncLocalStorage<RequestScope>();

/** Runs `run` in a scope of its own; the returned scope names the rider once a check in it named one. */
export function runInRequestScope<T>(requestId: string, run: () => T): T;
export function runInRequestScope<T>(scope: RequestScope, run: () => T): T;
export function runInRequestScope<T>(scope: string | RequestScope, run: () => T): T {
  return requestScope.run(typeof scope === 'string' ? { requestId: scope } : scope, run);
}

/** The id of the request in scope, or undefined outside one (a cron run, a Durable Object's alarm). */
export const requestIdInScope = (): string | undefined => requestScope.getStore()?.requestId;

/**
 * Names the signed-in rider of the request in scope, for its request line: a route whose token is optional reads
 * the caller without the auth check that sets `c.var.user`.
 */
export function nameRiderInScope(riderId: string): void {
  const scope = requestScope.getStore();
  if (scope) scope.riderId = riderId;
}
