import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { defineRoute } from './openapi';

/**
 * The Content-Security-Policy of every HTML page the Worker serves (/admin/events, /admin/moderation, /admin/analytics, /admin/ops,
 * /api/docs): scripts, styles, images and fetches from this origin only, nothing inline (each page's
 * script and stylesheet are routes of their own, `pageAssetRoute`), and no page may be framed. A page may add
 * a directive only through PAGE_POLICY_ADDITIONS below, each with its reason.
 */
export const PAGE_POLICY = [
  "default-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The pages whose policy adds a directive, by path. /api/docs: Swagger UI's stylesheet draws its icons as data: images
 * (SVG and PNG), which `default-src 'self'` refuses; images cannot run script, and scripts, styles and fetches stay 'self'.
 */
const PAGE_POLICY_ADDITIONS: Readonly<Record<string, string>> = {
  '/api/docs': "img-src 'self' data:",
};

/** The Content-Security-Policy of the page at `path`: PAGE_POLICY, plus its addition if it has one. */
export function pagePolicy(path: string): string {
  const addition = PAGE_POLICY_ADDITIONS[path];
  return addition ? `${PAGE_POLICY}; ${addition}` : PAGE_POLICY;
}

/** The headers the HTML page at `path` gets beside `nosniff` (worker/platform/middleware/security-headers.ts). */
export function pageHeaders(path: string): Record<string, string> {
  return { 'content-security-policy': pagePolicy(path), 'referrer-policy': 'no-referrer' };
}

/** What a page loads from the Worker besides its HTML, with the media type it is served as (nosniff holds it to that). */
const ASSET_TYPES = {
  script: 'text/javascript',
  stylesheet: 'text/css',
} as const;

export type PageAsset = keyof typeof ASSET_TYPES;

/** The route of a page's own script or stylesheet, which the page policy lets it load from this origin only. */
export function pageAssetRoute<const P extends string>(path: P, kind: PageAsset, page: string, tags: string[]) {
  return defineRoute({
    method: 'get',
    path,
    // A page's own file, not an operation a client calls: kept out of the API description.
    hide: true,
    tags,
    summary: `The ${kind} of ${page}, served from the Worker: the page's policy allows nothing inline`,
    responses: { 200: { description: kind, content: { [ASSET_TYPES[kind]]: { schema: z.string() } } } },
  });
}

/** Answers with a page's script or stylesheet under its media type. */
export function pageAsset(c: Context, kind: PageAsset, body: string) {
  return c.body(body, 200, { 'content-type': `${ASSET_TYPES[kind]}; charset=utf-8` });
}
