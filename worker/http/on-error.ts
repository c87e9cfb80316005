import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isDatabaseUnreachable, isDuplicateKey } from '../db/errors';
import { ApiError } from './errors';

/**
 * The one place errors become responses: `{error, details?}` JSON everywhere except the
 * Live plain-text access errors, which arrive as HTTPExceptions carrying their Response.
 * A 500 never carries a stack trace; the log does.
 */
export function onError(err: Error, c: Context): Response {
  if (err instanceof HTTPException) {
    if (err.res) return err.res;
    return c.json({ error: err.message || 'Bad request.' }, err.status);
  }
  if (err instanceof ApiError) {
    const body = err.details ? { error: err.message, details: err.details } : { error: err.message };
    return c.json(body, err.status, err.headers);
  }
  if (isDatabaseUnreachable(err)) {
    console.error(`database unreachable: ${err.message}`);
    return c.json({ error: 'The database is unavailable. Try again shortly.' }, 503, { 'Retry-After': '5' });
  }
  if (isDuplicateKey(err)) {
    const fields = Object.keys(err.keyValue ?? {}).join(', ') || 'value';
    return c.json({ error: `A record with this ${fields} already exists.` }, 409);
  }
  console.error(err.stack ?? err);
  return c.json({ error: 'Internal server error.' }, 500);
}

export function onNotFound(c: Context): Response {
  return c.json({ error: `No route for ${c.req.method} ${new URL(c.req.url).pathname}.` }, 404);
}
