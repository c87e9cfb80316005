import { cors } from 'hono/cors';
import { createMiddleware } from 'hono/factory';
import { setAnswerHeaders } from '../http/answer-headers';

/** What a browser on another origin may send and read. */
export interface ApiCorsOptions {
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

/**
 * CORS for the API, any origin allowed: tokens travel in headers, never cookies. A preflight gets Hono's cors
 * middleware's answer. Any other request gets its two headers on its answer after the handler: Hono's middleware
 * sets them before the handler, on a placeholder response made for them, whose headers are then copied into the
 * answer, a response and two header copies more on every request.
 * @example app.use('/api/*', apiCors({ allowHeaders: ['x-auth-token'], exposeHeaders: ['x-request-id'], maxAgeSeconds: 86400 }))
 */
export function apiCors(options: ApiCorsOptions) {
  const preflight = cors({
    origin: '*',
    allowHeaders: options.allowHeaders,
    exposeHeaders: options.exposeHeaders,
    maxAge: options.maxAgeSeconds,
  });
  const answerHeaders = {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': options.exposeHeaders.join(','),
  };
  return createMiddleware(async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    setAnswerHeaders(c, answerHeaders);
  });
}
