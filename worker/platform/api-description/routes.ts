import { createRoute, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';
import { createRouter } from '../http/openapi';
import { pageAsset, pageAssetRoute } from '../http/page-policy';
import { DOCS_PAGE, DOCS_SCRIPT, DOCS_STYLES } from './docs-page';
import { completeOperations } from './operations';
import { RENDERER_SCRIPT, RENDERER_STYLES } from './renderer-source.js';

const TAGS = ['meta'];

const document = createRoute({
  method: 'get',
  path: '/openapi.json',
  tags: TAGS,
  summary: 'This API description (OpenAPI 3.1)',
  security: [],
  responses: {
    200: {
      description: 'OpenAPI document',
      content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } },
    },
  },
});

const docsPage = createRoute({
  method: 'get',
  path: '/docs',
  tags: TAGS,
  summary: 'Human-readable API reference',
  security: [],
  responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
});

const docsScript = pageAssetRoute('/docs/app.js', 'script', 'the reference page', TAGS);
const docsStyles = pageAssetRoute('/docs/styles.css', 'stylesheet', 'the reference page', TAGS);
const rendererScript = pageAssetRoute('/docs/swagger-ui-bundle.js', 'script', 'the reference page (Swagger UI)', TAGS);
const rendererStyles = pageAssetRoute('/docs/swagger-ui.css', 'stylesheet', 'the reference page (Swagger UI)', TAGS);

/** Serves the description `describeApi` builds, completed (once per isolate: routes do not change at run time). */
export function openApiRoutes(describeApi: () => object) {
  let built: object | undefined;
  return createRouter<AppEnv>()
    .openapi(document, (c) => {
      built ??= completeOperations(describeApi());
      return c.json(built as Record<string, unknown>, 200);
    })
    .openapi(docsPage, (c) => c.html(DOCS_PAGE))
    .openapi(docsScript, (c) => pageAsset(c, 'script', DOCS_SCRIPT))
    .openapi(docsStyles, (c) => pageAsset(c, 'stylesheet', DOCS_STYLES))
    .openapi(rendererScript, (c) => pageAsset(c, 'script', RENDERER_SCRIPT))
    .openapi(rendererStyles, (c) => pageAsset(c, 'stylesheet', RENDERER_STYLES));
}
