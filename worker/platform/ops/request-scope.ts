import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work runs for, so a log line written deep in a service, or in its background work after
 * the answer, carries the request's id without every function passing it on. Set by the request log middleware.
 */
const requestScope = new AsyncLocalStorage<{ requestId: string }>();

export function runInRequestScope<T>(requestId: string, run: () => T): T {
  return requestScope.run({ requestId }, run);
}

/** The id of the request in scope, or undefined outside one (a cron run, a Durable Object's alarm). */
export const requestIdInScope = (): string | undefined => requestScope.getStore()?.requestId;
