import { Hono } from 'hono';
import type { RouterRoute } from 'hono/types';
import type { AppEnv } from '../env';
import { SERVICE_VERSION } from '../version';
import { describe } from './describe';
import { DOCS_PAGE } from './docs-page';
import { buildOpenApiDocument } from './document';

/** Serves the description of the app whose routes `getRoutes` returns. */
export function openApiRoutes(getRoutes: () => RouterRoute[]) {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  return new Hono<AppEnv>()
    .get(
      '/openapi.json',
      describe({
        summary: 'This API description (OpenAPI 3.1)',
        tags: ['meta'],
        responses: { 200: { description: 'OpenAPI document' } },
      }),
      (c) => {
        document ??= buildOpenApiDocument(getRoutes(), { version: SERVICE_VERSION });
        return c.json(document);
      },
    )
    .get(
      '/docs',
      describe({
        summary: 'Human-readable API reference',
        tags: ['meta'],
        responses: { 200: { description: 'HTML page' } },
      }),
      (c) => c.html(DOCS_PAGE),
    );
}
