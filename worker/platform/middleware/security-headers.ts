import { createMiddleware } from 'hono/factory';
import { setAnswerHeaders } from '../http/answer-headers';
import { pageHeaders } from '../http/page-policy';

/**
 * Sets `X-Content-Type-Options: nosniff` on every response, and on HTML pages the page policy
 * (worker/platform/http/page-policy.ts): Content-Security-Policy and `Referrer-Policy: no-referrer`.
 * @example app.use('*', securityHeaders())
 */
export function securityHeaders() {
  return createMiddleware(async (c, next) => {
    await next();
    const isPage = c.res.headers.get('content-type')?.startsWith('text/html') ?? false;
    setAnswerHeaders(c, { 'x-content-type-options': 'nosniff', ...(isPage ? pageHeaders(c.req.path) : {}) });
  });
}
