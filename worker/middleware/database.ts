import { createMiddleware } from 'hono/factory';
import { openRequestConnection } from '../db/connection';
import type { Store } from '../db/store';
import type { Env } from '../env';

/** What `database()` sets: the request's Store on `c.var.db`. */
export type DatabaseVariables = { db: Store };

/**
 * Puts the request's Store on `c.var.db` and closes its connection after the response,
 * without making the client wait for the close.
 * @example app.use('/api/*', database())
 */
export function database() {
  return createMiddleware<{ Bindings: Env; Variables: DatabaseVariables }>(async (c, next) => {
    const connection = openRequestConnection(c.env);
    c.set('db', connection.store);
    try {
      await next();
    } finally {
      c.executionCtx.waitUntil(connection.release());
    }
  });
}
