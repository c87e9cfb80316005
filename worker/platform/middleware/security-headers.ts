import { createMiddleware } from 'hono/factory';
import { pageHeaders } from '../http/page-policy';

/**
 * Sets `X-Content-Type-Options: nosniff` on every response, and on HTML pages the page policy
 * (worker/platform/http/page-policy.ts): Content-Security-Policy and `Referrer-Policy: no-referrer`.
 * @example app.use('*', securityHeaders())
 */
export function securityHeaders() {
  return createMiddleware(async (c, next) => {
    await next();
    // A WebSocket handshake goes back exactly as the room or the voice box answered it.
    if (c.res.status === 101) return;
    const isPage = c.res.headers.get('content-type')?.startsWith('text/html') ?? false;
    const headers: Record<string, string> = {
      'x-content-type-options': 'nosniff',
      ...(isPage ? pageHeaders(c.req.path) : {}),
    };
    try {
      for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    } catch {
      // A response fetched from elsewhere (a Durable Object, the voice box) has immutable headers: copy it.
      const copy = new Response(c.res.body, c.res);
      for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
      c.res = copy;
    }
  });
}
