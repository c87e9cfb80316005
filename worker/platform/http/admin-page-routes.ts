import { z } from '@hono/zod-openapi';
import type { Env as HonoEnv } from 'hono';
import { ADMIN_PAGE_STYLES, type AdminPage, adminPageAssets, adminPageHtml } from './admin-page';
import { createRouter, defineRoute } from './openapi';
import { pageAsset, pageAssetRoute } from './page-policy';

/** An admin page with what it is served with and how its routes are described. */
export interface ServedAdminPage {
  page: AdminPage;
  /** The page's own script, run after its HTML (worker/platform/http/admin-page-sign-in.ts ends it). */
  script: string;
  /** The page's own stylesheet rules, after the shell's. */
  styles: string;
  /** How the descriptions of its script and stylesheet name it ("the dashboard page"). */
  name: string;
  summary: string;
  tags: string[];
}

/**
 * The routes of an admin page, its script and its stylesheet, to mount at the root (outside /api: no database, no CORS).
 * @example adminPageRoutes<AppEnv>({ page: DESK_PAGE, script: DESK_SCRIPT, styles: DESK_STYLES, name, summary, tags })
 */
export function adminPageRoutes<E extends HonoEnv>(served: ServedAdminPage) {
  const { page, name, tags } = served;
  const assets = adminPageAssets(page.path);
  const html = adminPageHtml(page);
  const styles = ADMIN_PAGE_STYLES + served.styles;
  const pageRoute = defineRoute({
    method: 'get',
    path: page.path,
    tags,
    summary: served.summary,
    responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
  });
  return createRouter<E>()
    .openapi(pageRoute, (c) => c.html(html, 200))
    .openapi(pageAssetRoute(assets.script, 'script', name, tags), (c) => pageAsset(c, 'script', served.script))
    .openapi(pageAssetRoute(assets.stylesheet, 'stylesheet', name, tags), (c) => pageAsset(c, 'stylesheet', styles));
}
