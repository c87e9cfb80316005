import type { ZodType } from 'zod';

/** What a route's middleware tells the OpenAPI generator about itself. */
export type RouteAnnotation =
  | { kind: 'doc'; doc: RouteDoc }
  | { kind: 'input'; target: 'json' | 'query' | 'param' | 'header'; schema: ZodType }
  | { kind: 'security'; scheme: SecurityScheme };

export type SecurityScheme = 'authToken' | 'bearerToken';

export interface ResponseDoc {
  description: string;
  schema?: ZodType;
  /** Plain-text bodies (the Live access errors) rather than JSON. */
  text?: boolean;
}

export interface RouteDoc {
  summary: string;
  tags: string[];
  description?: string;
  responses: Record<number, ResponseDoc>;
}

const ANNOTATION = Symbol.for('rider.openapi.annotation');

/**
 * Tags a middleware with what it means for the API description. The generator walks the
 * app's routes and reads these back, so the document is built from the very schemas and
 * checks the routes run.
 */
export function annotate<T extends object>(middleware: T, annotation: RouteAnnotation): T {
  return Object.assign(middleware, { [ANNOTATION]: annotation });
}

export function readAnnotation(handler: unknown): RouteAnnotation | undefined {
  if (typeof handler !== 'function') return undefined;
  return (handler as unknown as Record<symbol, RouteAnnotation | undefined>)[ANNOTATION];
}
