import type { RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError, ZodType } from 'zod';
import { type Acceptor, DECLINED, fastAcceptor } from './fast-accept';
import { acceptedEarlier } from './validated-ahead';

// A route's inputs checked in one middleware, in the order and with the outcomes of @hono/zod-openapi's own
// validators (one middleware per input, each reading the content type again, the header one copying every request
// header out of the runtime): query, path, headers, the body's media type, then the JSON body. What it cannot do
// exactly as they do (cookies, form bodies, a body of other media types) it declines, and the route keeps theirs.

/** The input a validator reads, as `c.req.valid(target)` names it. */
export type Target = 'query' | 'param' | 'header' | 'json';

/** What a failed input becomes: thrown, so the router's error handler answers it. */
export type Refuse = (target: Target, error: ZodError) => never;

/** The body's media type as the library's gate admits it: the whole header, parameters included. */
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
/** A declared media type the library reads as JSON. */
const JSON_MEDIA_TYPE = /^application\/([a-z-.]+\+)?json/i;
/** The media type (before any `;`) the body validator reads as JSON. */
const JSON_BODY = /^application\/([\w.-]+\+)?json$/i;

interface Check {
  target: Target;
  read: (c: Context) => unknown;
  schema: ZodType;
  accept: Acceptor | null;
}

const isZod = (schema: unknown): schema is ZodType =>
  typeof (schema as ZodType | undefined)?.safeParseAsync === 'function';

const defOf = (schema: ZodType) =>
  (schema as unknown as { _zod: { def: { type: string; catchall?: unknown } } })._zod.def;

/** Query values as the library hands them over: a name given once is a string, given more often an array. */
function queryOf(c: Context): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0]! : values]),
  );
}

/**
 * The headers a header schema reads. A plain object schema drops every other key, so only the named ones are read
 * (each by name, case-insensitively); any other schema gets every header, keyed by its own spelling where it names one.
 */
function headerReader(schema: ZodType): (c: Context) => Record<string, string> {
  // A pipe's keys are its input object's, as the library reads them.
  const keyed = schema as unknown as { shape?: Record<string, unknown>; in?: { shape?: Record<string, unknown> } };
  const names = Object.keys(('in' in keyed ? keyed.in?.shape : keyed.shape) ?? {});
  const def = defOf(schema);
  if (def.type === 'object' && def.catchall === undefined) {
    return (c) => {
      const named: Record<string, string> = {};
      for (const name of names) {
        const value = c.req.header(name);
        if (value !== undefined) named[name] = value;
      }
      return named;
    };
  }
  const spelling = new Map(names.map((name) => [name.toLowerCase(), name]));
  return (c) =>
    Object.fromEntries(Object.entries(c.req.header()).map(([name, value]) => [spelling.get(name) ?? name, value]));
}

/** Whether a request without a content type still carries body bytes (the library's test, kept). */
async function hasBody(c: Context): Promise<boolean> {
  const raw = c.req.raw;
  if (raw.body === null) return false;
  if (raw.bodyUsed) return (await c.req.arrayBuffer()).byteLength > 0;
  const body = raw.clone().body;
  if (body === null) return false;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      if (value.byteLength > 0) return true;
    }
  } finally {
    reader.releaseLock();
  }
}

async function jsonOf(c: Context): Promise<unknown> {
  const contentType = c.req.header('content-type');
  const mediaType = contentType ? contentType.split(';')[0]!.trim().toLowerCase() : '';
  if (!JSON_BODY.test(mediaType)) return {};
  try {
    return await c.req.json();
  } catch {
    throw new HTTPException(400, { message: 'Malformed JSON in request body' });
  }
}

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

/**
 * One middleware checking every input `request` declares, or null when the route needs what only the library's
 * validators do (cookies, a form body, a body of more than JSON): the route then keeps those.
 */
export function requestValidation(request: RouteConfig['request'], refuse: Refuse): MiddlewareHandler | null {
  if (!request) return null;
  if (request.cookies) return null;
  const checks: Check[] = [];
  const add = (target: Target, schema: unknown, read: (c: Context) => unknown) => {
    if (!isZod(schema)) return false;
    checks.push({ target, read, schema, accept: fastAcceptor(schema) });
    return true;
  };
  if (request.query) add('query', request.query, queryOf);
  if (request.params) add('param', request.params, (c) => c.req.param());
  if (request.headers) {
    // An array of header parameters is the library's to read.
    if (!isZod(request.headers)) return null;
    add('header', request.headers, headerReader(request.headers));
  }
  let body: { schema: ZodType; required: boolean } | undefined;
  const content = request.body?.content;
  if (content) {
    const declared = Object.entries(content);
    const schemaOf = (media: unknown) => (media as { schema?: unknown } | undefined)?.schema;
    const zodSchemas = declared.filter(([, media]) => isZod(schemaOf(media)));
    if (zodSchemas.length) {
      // Only a body declared as JSON alone, with one zod schema, is read here.
      if (declared.length !== 1 || !JSON_MEDIA_TYPE.test(declared[0]![0])) return null;
      body = { schema: schemaOf(zodSchemas[0]![1]) as ZodType, required: request.body?.required === true };
    }
  }
  const bodyCheck: Check | undefined = body && {
    target: 'json',
    read: jsonOf,
    schema: body.schema,
    // The body schema answers fast on its own where it can (./fast-accept.ts acceptingFast).
    accept: null,
  };
  return async (c, next) => {
    for (const check of checks) {
      const earlier = acceptedEarlier(c.req.raw, check.target, check.schema);
      const value = earlier ? (earlier.value as object) : await parse(check, check.read(c), refuse);
      c.req.addValidatedData(check.target, value);
    }
    // A body the access check's early look accepted passed this gate and this schema (./validated-ahead.ts).
    const earlierBody = bodyCheck && acceptedEarlier(c.req.raw, 'json', bodyCheck.schema);
    if (earlierBody) c.req.addValidatedData('json', earlierBody.value as object);
    else if (bodyCheck) {
      const contentType = c.req.header('content-type');
      if (contentType ? !JSON_REQUEST.test(contentType) : await hasBody(c)) {
        throw new HTTPException(415, { message: 'Unsupported Media Type' });
      }
      if (body?.required || (contentType && JSON_MEDIA_TYPE.test(contentType))) {
        c.req.addValidatedData('json', await parse(bodyCheck, await jsonOf(c), refuse));
      } else {
        c.req.addValidatedData('json', {});
      }
    }
    await next();
  };
}
