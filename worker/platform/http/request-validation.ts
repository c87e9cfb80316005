import type { RouteConfig } from '@hono/zod-openapi';
import type { HonoRequest, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError, ZodType } from 'zod';
import { type Acceptor, acceptorOf, DECLINED } from './fast-accept';
import { hasBody, headerReader, JSON_MEDIA_TYPE, JSON_REQUEST, jsonOf, queryOf } from './request-inputs';
import { takeEarlier } from './validated-ahead';

// A route's inputs checked in one middleware, in the order and with the outcomes of @hono/zod-openapi's own
// validators (one middleware per input, each reading the content type again, the header one copying every request
// header out of the runtime): query, path, headers, the body's media type, then the JSON body. What it cannot do
// exactly as they do (cookies, form bodies, a body of other media types) it declines, and the route keeps theirs.

/** What a failed input becomes: thrown, so the router's error handler answers it. */
export type Refuse = (target: string, error: ZodError) => never;

interface Check {
  target: 'query' | 'param' | 'header' | 'json';
  read: (req: HonoRequest) => unknown;
  schema: ZodType;
  accept: Acceptor | null;
}

const isZod = (schema: unknown): schema is ZodType =>
  typeof (schema as ZodType | undefined)?.safeParseAsync === 'function';

/** The input as its schema outputs it (an object, as every route's inputs are), or refused. */
async function parse(check: Check, value: unknown, refuse: Refuse): Promise<object> {
  if (check.accept) {
    const accepted = check.accept(value);
    if (accepted !== DECLINED) return accepted as object;
  }
  const result = await check.schema.safeParseAsync(value);
  if (!result.success) refuse(check.target, result.error);
  return result.data as object;
}

/** The inputs a route declares as checks, in the library's order, or null when one is the library's alone to read. */
function routeInputs(
  request: NonNullable<RouteConfig['request']>,
): { checks: Check[]; body?: Check & { required: boolean } } | null {
  // Cookies, header parameters given as an array, anything not a zod schema: the library's validators read them.
  if (request.cookies) return null;
  const inputs: [Check['target'], unknown, (req: HonoRequest) => unknown][] = [];
  if (request.query) inputs.push(['query', request.query, queryOf]);
  if (request.params) inputs.push(['param', request.params, (req) => req.param()]);
  if (request.headers) {
    if (!isZod(request.headers)) return null;
    inputs.push(['header', request.headers, headerReader(request.headers)]);
  }
  const checks: Check[] = [];
  for (const [target, schema, read] of inputs) {
    if (!isZod(schema)) return null;
    checks.push({ target, read, schema, accept: acceptorOf(schema) });
  }
  const content = request.body?.content;
  if (!content) return { checks };
  const declared = Object.entries(content);
  const schemaOf = (media: unknown) => (media as { schema?: unknown } | undefined)?.schema;
  const zodSchemas = declared.filter(([, media]) => isZod(schemaOf(media)));
  if (!zodSchemas.length) return { checks };
  // Only a body declared as JSON alone, with one zod schema, is read here.
  if (declared.length !== 1 || !JSON_MEDIA_TYPE.test(declared[0]![0])) return null;
  const schema = schemaOf(zodSchemas[0]![1]) as ZodType;
  const required = request.body?.required === true;
  return { checks, body: { target: 'json', read: jsonOf, schema, accept: acceptorOf(schema), required } };
}

/**
 * One middleware checking every input `request` declares, or null when there is none, or the route needs what only
 * the library's validators do (cookies, a form body, a body of more than JSON): the route then keeps those.
 * An input the write-ahead's early look already accepted under the same schema (./validated-ahead.ts) is taken from
 * there: the same request and schema give the same output, and a body it accepted passed the same media type gate.
 */
export function requestValidation(request: RouteConfig['request'], refuse: Refuse): MiddlewareHandler | null {
  const declared = request && routeInputs(request);
  if (!declared || (!declared.checks.length && !declared.body)) return null;
  const { checks, body } = declared;
  return async (c, next) => {
    const earlier = takeEarlier(c.req.raw);
    for (const check of checks) {
      const taken = earlier?.[check.target];
      const value = taken?.schema === check.schema ? taken.value : await parse(check, check.read(c.req), refuse);
      c.req.addValidatedData(check.target, value as object);
    }
    if (body) {
      const taken = earlier?.json;
      if (taken?.schema === body.schema) c.req.addValidatedData('json', taken.value as object);
      else {
        const contentType = c.req.header('content-type');
        if (contentType ? !JSON_REQUEST.test(contentType) : await hasBody(c.req)) {
          throw new HTTPException(415, { message: 'Unsupported Media Type' });
        }
        const read = body.required || (contentType && JSON_MEDIA_TYPE.test(contentType));
        c.req.addValidatedData('json', read ? await parse(body, await jsonOf(c.req), refuse) : {});
      }
    }
    await next();
  };
}
