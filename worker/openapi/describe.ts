import { createMiddleware } from 'hono/factory';
import { annotate, type RouteDoc } from './annotations';

/**
 * Documents a route in the OpenAPI document; does nothing at request time.
 * @example app.get('/spots/:id', describe({ summary: 'One spot', tags: ['spots'], responses: { 200: { description: 'The spot', schema: Spot } } }), handler)
 */
export function describe(doc: RouteDoc) {
  return annotate(
    createMiddleware(async (_c, next) => next()),
    { kind: 'doc', doc },
  );
}
