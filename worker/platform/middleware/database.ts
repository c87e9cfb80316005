import { createMiddleware } from 'hono/factory';
import { openRequestConnection } from '../db/connection';
import type { Store } from '../db/store';
import type { Env } from '../env';
import type { RequestLogVariables } from './request-log';

/** What `database()` sets: the request's Store on `c.var.db`, and a way to run work after the response. */
export type DatabaseVariables = {
  db: Store;
  /** Starts a task that may outlive the response (a real-time publish); the connection closes after it. It must not throw. */
  inBackground: (task: () => Promise<void>) => void;
};

/**
 * Puts the request's Store on `c.var.db` and closes its connection after the response and the
 * request's background tasks, without making the client wait for the close.
 * @example app.use('/api/*', database())
 */
export function database() {
  return createMiddleware<{ Bindings: Env; Variables: DatabaseVariables & Partial<RequestLogVariables> }>(
    async (c, next) => {
      const connection = openRequestConnection(c.env, c.get('timing'));
      const background: Promise<void>[] = [];
      c.set('db', connection.store);
      c.set('inBackground', (task) => background.push(task()));
      try {
        await next();
      } finally {
        c.executionCtx.waitUntil(Promise.allSettled(background).then(() => connection.release()));
      }
    },
  );
}
