import type { HonoRequest } from 'hono';
import type { ZodObject, ZodType, z } from 'zod';
import { parseFast } from './fast-accept';

/**
 * A JSON request's content type as the route's media-type gate admits it (@hono/zod-openapi's rule, on the whole
 * header, parameters included): stricter than the body validator's look at the media type before any `;`, so a body
 * this admits is one both read.
 */
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/** A route's request schemas: its path params, headers and required JSON body, the ones its route is defined with. */
export interface RequestSchemas<P extends ZodType, H extends ZodObject, J extends ZodType> {
  param: P;
  header: H;
  json: J;
}

/**
 * The request's path params, headers and JSON body as the route's validators will read them (the same inputs: the
 * body parsed once, which the validator reads again from the request's cache), when every one passes the route's own
 * schema; undefined when any would not, or the body is not JSON. For work that must not start on a request the
 * route will answer 400 (a write sent in the access check's call, which runs before validation).
 */
export async function validatedAhead<P extends ZodType, H extends ZodObject, J extends ZodType>(
  req: HonoRequest,
  schemas: RequestSchemas<P, H, J>,
): Promise<{ param: z.output<P>; header: z.output<H>; json: z.output<J> } | undefined> {
  if (!JSON_REQUEST.test(req.header('content-type') ?? '')) return undefined;
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return undefined;
  }
  const param = parseFast(schemas.param, req.param());
  // The headers the schema names, each read once: an object schema reads no other (the validator's own pass
  // strips the rest), so the request's every header is not copied out of the runtime here.
  const named: Record<string, string> = {};
  for (const name of Object.keys(schemas.header.shape)) {
    const value = req.header(name);
    if (value !== undefined) named[name] = value;
  }
  const header = parseFast(schemas.header, named);
  const json = parseFast(schemas.json, body);
  if (!(param.success && header.success && json.success)) return undefined;
  const valid = { param: param.data, header: header.data, json: json.data };
  checkedEarlier.set(req.raw, {
    param: { schema: schemas.param, value: valid.param },
    header: { schema: schemas.header, value: valid.header },
    json: { schema: schemas.json, value: valid.json },
  });
  return valid;
}

type Checked = Record<keyof RequestSchemas<ZodType, ZodObject, ZodType>, { schema: ZodType; value: unknown }>;

/** What validatedAhead accepted of a request, with the schema each input passed. */
const checkedEarlier = new WeakMap<Request, Checked>();

/**
 * The input `target` of this request as validatedAhead already accepted it under this very schema, for the route's
 * own validation to take instead of reading and parsing it again (the same request and schema give the same output);
 * undefined when it did not.
 */
export function acceptedEarlier(request: Request, target: string, schema: ZodType): { value: unknown } | undefined {
  const checked = checkedEarlier.get(request)?.[target as keyof Checked];
  return checked?.schema === schema ? { value: checked.value } : undefined;
}
