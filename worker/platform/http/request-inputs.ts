import type { HonoRequest } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodType } from 'zod';

// A request's inputs read as @hono/zod-openapi's validators read them (node_modules/@hono/zod-openapi,
// @hono/zod-validator and hono/validator), for the route's validation (./request-validation.ts) and the write-ahead's
// early look at the same inputs (./validated-ahead.ts): both must see what the library would.

/** The body's media type as the library's gate admits it: the whole header, parameters included. */
export const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
/** A declared media type the library reads as JSON. */
export const JSON_MEDIA_TYPE = /^application\/([a-z-.]+\+)?json/i;
/** The media type (before any `;`) the body validator reads as JSON. */
const JSON_BODY = /^application\/([\w.-]+\+)?json$/i;
/** A header name as the runtime takes it: a name outside this would throw when read alone. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const defOf = (schema: ZodType) =>
  (schema as unknown as { _zod: { def: { type: string; catchall?: unknown } } })._zod.def;

/** Query values as the library hands them over: a name given once is a string, given more often an array. */
export function queryOf(req: HonoRequest): Record<string, string | string[]> {
  return Object.fromEntries(
    Object.entries(req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0]! : values]),
  );
}

/** The names a header schema reads: an object's keys, a pipe's from its input object (as the library reads them). */
function headerNames(schema: ZodType): string[] {
  const keyed = schema as unknown as { shape?: Record<string, unknown>; in?: { shape?: Record<string, unknown> } };
  return Object.keys(('in' in keyed ? keyed.in?.shape : keyed.shape) ?? {});
}

const readers = new WeakMap<ZodType, (req: HonoRequest) => Record<string, string>>();

/**
 * How a header schema's input is read. A plain (stripping) object schema keeps only the headers it names, so only
 * those are read, each by name; any other schema (strict, loose, a pipe) gets every header, keyed by its own spelling
 * where it names one, as the library copies them. Made once per schema.
 */
export function headerReader(schema: ZodType): (req: HonoRequest) => Record<string, string> {
  let reader = readers.get(schema);
  if (reader) return reader;
  const names = headerNames(schema);
  const def = defOf(schema);
  if (def.type === 'object' && def.catchall === undefined && names.every((name) => HEADER_NAME.test(name))) {
    reader = (req) => {
      const named: Record<string, string> = {};
      for (const name of names) {
        const value = req.header(name);
        if (value !== undefined) named[name] = value;
      }
      return named;
    };
  } else {
    const spelling = new Map(names.map((name) => [name.toLowerCase(), name]));
    reader = (req) =>
      Object.fromEntries(Object.entries(req.header()).map(([name, value]) => [spelling.get(name) ?? name, value]));
  }
  readers.set(schema, reader);
  return reader;
}

/** Whether a request without a content type still carries body bytes: the library's test, kept. */
export async function hasBody(req: HonoRequest): Promise<boolean> {
  const raw = req.raw;
  if (raw.body === null) return false;
  if (raw.bodyUsed) return (await req.arrayBuffer()).byteLength > 0;
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
    reader.cancel().catch(() => {});
  }
}

/** The JSON body as the library's body validator reads it: {} for another media type, a 400 when it is not JSON. */
export async function jsonOf(req: HonoRequest): Promise<unknown> {
  const contentType = req.header('content-type');
  const mediaType = contentType ? contentType.split(';')[0]!.trim().toLowerCase() : '';
  if (!JSON_BODY.test(mediaType)) return {};
  try {
    return await req.json();
  } catch {
    throw new HTTPException(400, { message: 'Malformed JSON in request body' });
  }
}
