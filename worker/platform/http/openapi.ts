import { createRoute, OpenAPIHono, type RouteConfig, z } from '@hono/zod-openapi';
import type { Env as HonoEnv, MiddlewareHandler } from 'hono';
import type { ZodError, ZodObject, ZodType } from 'zod';
import { ApiError, type ErrorDetail } from './errors';
import { requestValidation } from './request-validation';

/** One documented answer: what it means and, per media type, the schema of its body. */
type ResponseConfig = {
  description: string;
  content?: Record<string, { schema: ZodType }>;
  /** Response headers a client relies on; required ones are checked by test/support/response-contract.ts. */
  headers?: ZodObject;
};
type Responses = Record<number, ResponseConfig>;
type Security = NonNullable<RouteConfig['security']>;

/** The JSON error body of every refusal that is not a Live plain-text access error. */
const ErrorBody = z
  .object({
    error: z.string().describe('a sentence saying what is wrong'),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .openapi('Error');

export const jsonResponse = (schema: ZodType, description: string, headers?: ZodObject): ResponseConfig => ({
  description,
  content: { 'application/json': { schema } },
  ...(headers ? { headers } : {}),
});

export const errorResponse = (description: string, headers?: ZodObject) =>
  jsonResponse(ErrorBody, description, headers);

/** A required JSON request body with this schema. */
export const jsonBody = <T extends ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

/** `Retry-After` in whole seconds, on 429 and 503. */
export const RETRY_AFTER = z.object({ 'Retry-After': z.string().describe('seconds to wait before retrying') });

/** A Live plain-text response: its schema lists the exact texts, so the check is exact too. */
export const textResponse = (texts: [string, ...string[]]): ResponseConfig => ({
  description: `Plain text: ${texts.map((text) => `"${text}"`).join(' or ')}`,
  content: { 'text/plain': { schema: z.enum(texts) } },
});

/** What a middleware adds to the description of every route that runs it. */
export interface MiddlewareDocs {
  security?: Security;
  responses: Responses;
}

const DOCS = Symbol.for('rider.openapi.middleware-docs');

/** Attaches to a middleware the responses and security it brings to any route that uses it. */
export function withDocs<M extends MiddlewareHandler>(middleware: M, docs: MiddlewareDocs): M {
  return Object.assign(middleware, { [DOCS]: docs });
}

const docsOf = (middleware: unknown): MiddlewareDocs | undefined =>
  (middleware as Record<symbol, MiddlewareDocs | undefined>)[DOCS];

const enumValues = (schema: ZodType | undefined): string[] =>
  (schema as { options?: unknown[] } | undefined)?.options?.filter((o): o is string => typeof o === 'string') ?? [];

/**
 * Two documented answers under one status (a plain-text 400 and a JSON 400, or two access
 * texts) become one with every body: plain-text alternatives are joined into one enum, two different JSON
 * bodies into either of them (a route's own 403 and a suspended account's).
 */
export function mergeResponse(a: ResponseConfig | undefined, b: ResponseConfig): ResponseConfig {
  if (!a) return b;
  const content = { ...b.content, ...a.content };
  const aJson = a.content?.['application/json']?.schema;
  const bJson = b.content?.['application/json']?.schema;
  if (aJson && bJson && aJson !== bJson) content['application/json'] = { schema: z.union([aJson, bJson]) };
  const texts = [
    ...new Set([...enumValues(a.content?.['text/plain']?.schema), ...enumValues(b.content?.['text/plain']?.schema)]),
  ];
  if (a.content?.['text/plain'] && b.content?.['text/plain'] && texts.length) {
    content['text/plain'] = { schema: z.enum(texts as [string, ...string[]]) };
  }
  return {
    ...a,
    description: a.description === b.description ? a.description : `${a.description}; or ${b.description}`,
    content,
    ...(a.headers || b.headers ? { headers: a.headers ?? b.headers } : {}),
  };
}

function addResponses(into: Responses, more: Responses): void {
  for (const [status, response] of Object.entries(more)) {
    into[Number(status)] = mergeResponse(into[Number(status)], response);
  }
}

/** What can go wrong on any route, whatever it does. */
const SERVICE_FAILURES: Responses = {
  500: errorResponse('Server misconfigured (the message names the missing setting) or an internal error'),
  503: errorResponse('The database is unavailable; retry after the Retry-After seconds', RETRY_AFTER),
};

const BODY_FAILURES: Responses = {
  413: errorResponse('Request body too large'),
  415: errorResponse('The body is not JSON (content-type must be application/json)'),
};

/**
 * `createRoute` plus what the route's middleware and inputs imply, so no route restates
 * them: the access checks' plain-text refusals and security scheme (none: `[]`), the 400 of a failed
 * validation, 413/415 for a body, and the service's own 500/503.
 */
export function defineRoute<const R extends RouteConfig>(route: R): R {
  // Routes here declare responses inline (never as $ref), so each is a ResponseConfig.
  const responses = { ...route.responses } as Responses;
  let security: Security = route.security ?? [];
  for (const middleware of [route.middleware ?? []].flat()) {
    const docs = docsOf(middleware);
    if (!docs) continue;
    addResponses(responses, docs.responses);
    security = [...security, ...(docs.security ?? [])];
  }
  const request = route.request;
  if (request?.body || request?.query || request?.params) {
    addResponses(responses, { 400: errorResponse('Validation failed: `details` lists each field and what is wrong') });
  }
  if (request?.body) addResponses(responses, BODY_FAILURES);
  addResponses(responses, SERVICE_FAILURES);
  // A route no access check guards says so (`security: []`) rather than leaving its security unstated.
  return createRoute({ ...route, responses, security }) as R;
}

const TARGET_LABEL: Record<string, string> = {
  json: 'request body',
  query: 'query string',
  param: 'path',
  header: 'headers',
};

function toDetails(target: string, error: ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join('.') : (TARGET_LABEL[target] ?? target),
    message: issue.message,
  }));
}

/**
 * A router whose routes validate with their zod schemas: a failure is a 400 listing every
 * field and what is wrong with it, thrown so worker/platform/http/on-error.ts answers it.
 * @example createRouter<AppEnv>().openapi(defineRoute({ method: 'get', path: '/', ... }), handler)
 */
export function createRouter<E extends HonoEnv>() {
  const router = new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) refuseInput(result.target, result.error);
    },
  });
  // Each route's inputs checked by one middleware (./request-validation.ts) rather than the library's one per input;
  // the route is described exactly as the library would, and registered through it with no inputs left to check.
  const register = router.openapi;
  router.openapi = ((route: RouteConfig, handler: never, hook?: never) => {
    const validation = hook ? null : requestValidation(route.request, refuseInput);
    if (!validation) return register(route, handler, hook);
    const { middleware, hide, ...described } = route;
    if (!hide) router.openAPIRegistry.registerPath(described);
    const checked = [...(middleware ? [middleware].flat() : []), validation];
    return register({ ...described, request: undefined, hide: true, middleware: checked }, handler);
  }) as typeof router.openapi;
  return router;
}

/** A failed input's 400, listing every field and what is wrong with it. */
export function refuseInput(target: string, error: ZodError): never {
  const label = TARGET_LABEL[target] ?? target;
  throw new ApiError(400, `Invalid ${label}.`, { details: toDetails(target, error) });
}
