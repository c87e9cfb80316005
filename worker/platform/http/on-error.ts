import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isDatabaseUnreachable, isDuplicateKey } from '../db/errors';
import { LIMITS } from '../limits';
import { describeError, log, logError } from '../ops/log-line';
import { MissingSettingError } from '../setting-error';
import { ApiError } from './errors';

const PLAIN_TEXT = 'text/plain; charset=utf-8';

// Hono's body validators answer a body that is not JSON with a bare 415; say what is expected.
const NOT_JSON = 'Expected a JSON body: send it with content-type: application/json.';

/**
 * The one place errors become responses: `{error, details?}` JSON everywhere except the
 * Live plain-text access errors. A 500 never carries a stack trace; the log does.
 */
export function onError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    // The Live access errors' exact content type, as the checks answered before.
    if (err.plainText) return c.body(err.message, err.status, { ...err.headers, 'content-type': PLAIN_TEXT });
    const body = {
      error: err.message,
      ...(err.details ? { details: err.details } : {}),
      ...err.fields,
    };
    return c.json(body, err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    if (err.status === 415) return c.json({ error: NOT_JSON }, 415);
    return c.json({ error: err.message || 'Bad request.' }, err.status);
  }
  if (err instanceof MissingSettingError) {
    log({ kind: 'error', where: 'setting', error: describeError(err), requestId: c.get('requestId') });
    return c.json({ error: err.message }, 500);
  }
  if (isDatabaseUnreachable(err)) {
    logError('database', err, c.get('requestId'));
    const retryAfter = String(LIMITS.databaseRetryAfterSeconds);
    return c.json({ error: 'The database is unavailable. Try again shortly.' }, 503, { 'Retry-After': retryAfter });
  }
  if (isDuplicateKey(err)) {
    const fields = Object.keys(err.keyValue ?? {}).join(', ') || 'value';
    return c.json({ error: `A record with this ${fields} already exists.` }, 409);
  }
  logError('request', err, c.get('requestId'));
  return c.json({ error: 'Internal server error.' }, 500);
}

export function onNotFound(c: Context): Response {
  return c.json({ error: `No route for ${c.req.method} ${new URL(c.req.url).pathname}.` }, 404);
}
