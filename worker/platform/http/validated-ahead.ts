import type { HonoRequest } from 'hono';
import type { ZodObject, ZodType, z } from 'zod';
import { parseFast } from './fast-accept';
import { headerReader, JSON_REQUEST } from './request-inputs';

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
  // The gate's rule, stricter than the body validator's look at the media type: a body it admits, both read.
  if (!JSON_REQUEST.test(req.header('content-type') ?? '')) return undefined;
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    return undefined;
  }
  const param = parseFast(schemas.param, req.param());
  const header = parseFast(schemas.header, headerReader(schemas.header)(req));
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

/** An input, by the name `c.req.valid()` reads it under, with the schema it passed. */
type Checked = Partial<Record<'query' | 'param' | 'header' | 'json', { schema: ZodType; value: unknown }>>;

/** What validatedAhead accepted of a request, with the schema each input passed. */
const checkedEarlier = new WeakMap<Request, Checked>();

/**
 * What validatedAhead accepted of this request, each input with the schema it passed, for the route's own validation
 * to take where its schema is that very one instead of reading and parsing again; taken once.
 */
export function takeEarlier(request: Request): Checked | undefined {
  const checked = checkedEarlier.get(request);
  checkedEarlier.delete(request);
  return checked;
}
