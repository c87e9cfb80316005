import { createRoute, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';
import { createRouter } from '../http/openapi';
import { DOCS_PAGE } from './docs-page';

const TAGS = ['meta'];

const document = createRoute({
  method: 'get',
  path: '/openapi.json',
  tags: TAGS,
  summary: 'This API description (OpenAPI 3.1)',
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
  responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } } },
});

/** Serves the description `describeApi` builds (once per isolate: routes do not change at run time). */
export function openApiRoutes(describeApi: () => object) {
  let built: object | undefined;
  return createRouter<AppEnv>()
    .openapi(document, (c) => {
      built ??= describeApi();
      return c.json(built as Record<string, unknown>, 200);
    })
    .openapi(docsPage, (c) => c.html(DOCS_PAGE));
}
