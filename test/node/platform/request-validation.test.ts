import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { IdString, pathId } from '../../../worker/platform/http/ids';
import { onError } from '../../../worker/platform/http/on-error';
import { createRouter, defineRoute, jsonBody, jsonResponse, refuseInput } from '../../../worker/platform/http/openapi';
import { PageQuery } from '../../../worker/platform/http/pagination';
import { validatedAhead } from '../../../worker/platform/http/validated-ahead';

// The project's router checks a route's inputs in one middleware; the library checks them one middleware per input.
// Every request below goes to both, built from the same route definitions, and must be answered the same.

const ok = jsonResponse(z.object({}).passthrough(), 'What the handler read');
const routes = [
  defineRoute({
    method: 'post',
    path: '/things/{id}',
    request: {
      params: z.object({ id: pathId('id') }),
      headers: z.object({ 'X-Socket-Id': z.string().max(8).optional(), 'x-mode': z.enum(['a', 'b']).optional() }),
      ...jsonBody(z.object({ text: z.string().trim().min(1).max(20) }).strict()),
    },
    responses: { 200: ok },
  }),
  defineRoute({
    method: 'get',
    path: '/things',
    request: { query: PageQuery.extend({ tag: z.union([z.string(), z.array(z.string())]).optional() }) },
    responses: { 200: ok },
  }),
  defineRoute({
    method: 'post',
    path: '/optional',
    request: {
      body: { content: { 'application/json': { schema: z.object({ all: z.boolean().optional() }) } }, required: false },
    },
    responses: { 200: ok },
  }),
  defineRoute({
    method: 'get',
    path: '/strict',
    request: { headers: z.strictObject({ 'x-mode': z.string().optional() }) },
    responses: { 200: ok },
  }),
  defineRoute({
    method: 'get',
    path: '/odd-header',
    request: { headers: z.object({ 'x mode': z.string().optional(), 'x-mode': z.string().optional() }) },
    responses: { 200: ok },
  }),
  defineRoute({
    method: 'get',
    path: '/loose/{id}',
    request: { params: z.object({ id: IdString }), headers: z.looseObject({ 'x-mode': z.string().optional() }) },
    responses: { 200: ok },
  }),
];

/** Every input the route validated, as the handler reads it. */
const echo = (c: Context) => {
  const valid = c.req.valid.bind(c.req) as (target: string) => unknown;
  const read = (target: string) => {
    try {
      return valid(target);
    } catch {
      return null;
    }
  };
  return c.json({ query: read('query'), param: read('param'), header: read('header'), json: read('json') }, 200);
};

function withRoutes(router: OpenAPIHono) {
  for (const route of routes) router.openapi(route, echo as never);
  router.onError(onError);
  return router;
}

const project = withRoutes(createRouter() as unknown as OpenAPIHono);
const library = withRoutes(
  new OpenAPIHono({
    defaultHook: (result) => {
      if (!result.success) refuseInput(result.target, result.error);
    },
  }),
);

const ID = '652f1e3b4a5c6d7e8f901234';
const JSON_TYPE = { 'content-type': 'application/json' };
const REQUESTS: [string, string, RequestInit?][] = [
  ['a valid request', `/things/${ID}`, { method: 'POST', headers: JSON_TYPE, body: '{"text":" hi "}' }],
  [
    'headers named in any case, with others beside them',
    `/things/${ID}`,
    {
      method: 'POST',
      headers: { ...JSON_TYPE, 'x-socket-id': 'abc', 'X-MODE': 'b', 'x-other': '1' },
      body: '{"text":"hi"}',
    },
  ],
  ['a bad path id', '/things/nope', { method: 'POST', headers: JSON_TYPE, body: '{"text":"hi"}' }],
  [
    'a bad header',
    `/things/${ID}`,
    { method: 'POST', headers: { ...JSON_TYPE, 'x-socket-id': 'far-too-long' }, body: '{"text":"hi"}' },
  ],
  ['a bad path id and a bad body', '/things/nope', { method: 'POST', headers: JSON_TYPE, body: '{"text":""}' }],
  [
    'a body of another media type',
    `/things/${ID}`,
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' },
  ],
  ['a body with no content type', `/things/${ID}`, { method: 'POST', body: new Uint8Array([123, 125]) }],
  ['no body and no content type', `/things/${ID}`, { method: 'POST' }],
  ['malformed JSON', `/things/${ID}`, { method: 'POST', headers: JSON_TYPE, body: '{"text":' }],
  [
    'JSON with a charset',
    `/things/${ID}`,
    { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"text":"hi"}' },
  ],
  [
    'a JSON suffix media type',
    `/things/${ID}`,
    { method: 'POST', headers: { 'content-type': 'application/vnd.rider+json' }, body: '{"text":"hi"}' },
  ],
  [
    'a media type parameter the gate refuses',
    `/things/${ID}`,
    { method: 'POST', headers: { 'content-type': 'application/json; charset' }, body: '{"text":"hi"}' },
  ],
  [
    'a key the strict body refuses',
    `/things/${ID}`,
    { method: 'POST', headers: JSON_TYPE, body: '{"text":"hi","x":1}' },
  ],
  ['a valid query, with a name given twice', '/things?limit=5&tag=a&tag=b'],
  ['the query defaults', '/things'],
  ['a bad query', '/things?limit=abc&cursor=zzz'],
  ['no optional body', '/optional', { method: 'POST' }],
  ['an optional body', '/optional', { method: 'POST', headers: JSON_TYPE, body: '{"all":true}' }],
  ['a bad optional body', '/optional', { method: 'POST', headers: JSON_TYPE, body: '{"all":1}' }],
  [
    'an optional body of another media type',
    '/optional',
    { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' },
  ],
  ['every header to a loose header schema', `/loose/${ID}`, { headers: { 'X-Mode': 'b', 'x-other': '1' } }],
  ['headers a strict header schema does not name', '/strict', { headers: { 'x-mode': 'a', 'x-other': '1' } }],
  ['a header schema naming what is no header name', '/odd-header', { headers: { 'x-mode': 'a' } }],
];

async function answer(router: OpenAPIHono, path: string, init?: RequestInit) {
  const response = await router.request(path, init);
  return { status: response.status, body: await response.json() };
}

/** A route whose middleware runs the write-ahead's early check on the route's own schemas first, as `auth` does. */
function earlyCheckedRoute(path: string, header: z.ZodObject) {
  const param = z.object({ id: pathId('id') });
  const json = z.object({ text: z.string().trim().min(1) }).strict();
  return defineRoute({
    method: 'post',
    path,
    middleware: [
      async (c, next) => {
        c.set('early' as never, (await validatedAhead(c.req, { param, header, json })) as never);
        await next();
      },
    ] as const,
    request: { params: param, headers: header, ...jsonBody(json) },
    responses: { 200: ok },
  });
}

describe('request validation', () => {
  it.each(REQUESTS)('answers %s as the library validators do', async (_, path, init) => {
    const expected = await answer(library, path, init);
    expect(await answer(project, path, init)).toEqual(expected);
  });

  it('checks in the order the library does: the path before the body', async () => {
    const { status, body } = await answer(project, '/things/nope', {
      method: 'POST',
      headers: JSON_TYPE,
      body: '{"text":""}',
    });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'Invalid path.', details: [expect.objectContaining({ field: 'id' })] });
  });

  it('hands the handler what the schemas output, and only the headers they name', async () => {
    const { status, body } = await answer(project, `/things/${ID}`, {
      method: 'POST',
      headers: { ...JSON_TYPE, 'x-socket-id': 'abc', 'x-other': '1' },
      body: '{"text":" hi "}',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ param: { id: ID }, header: { 'X-Socket-Id': 'abc' }, json: { text: 'hi' } });
  });

  it('takes what the early check accepted of the same request, and checks itself what it refused', async () => {
    const route = earlyCheckedRoute('/early/{id}', z.object({ 'x-socket-id': z.string().max(8).optional() }));
    const router = createRouter().openapi(route, (c) => {
      const early = c.get('early' as never) as { param: unknown; header: unknown; json: unknown } | undefined;
      const same = early
        ? c.req.valid('param') === early.param &&
          c.req.valid('header') === early.header &&
          c.req.valid('json') === early.json
        : null;
      return c.json({ same, text: c.req.valid('json').text }, 200);
    });
    router.onError(onError);
    const send = (id: string, body: string) =>
      answer(router as unknown as OpenAPIHono, `/early/${id}`, {
        method: 'POST',
        headers: { ...JSON_TYPE, 'x-socket-id': 'abc' },
        body,
      });
    expect(await send(ID, '{"text":" hi "}')).toEqual({ status: 200, body: { same: true, text: 'hi' } });
    const refused = await send(ID, '{"text":"  "}');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'Invalid request body.', details: [{ field: 'text' }] });
    expect((await send('nope', '{"text":"hi"}')).body).toMatchObject({ error: 'Invalid path.' });
  });

  it('answers as the library when the early check reads a strict header schema', async () => {
    const route = earlyCheckedRoute('/strict-early/{id}', z.strictObject({ 'x-socket-id': z.string().optional() }));
    const project = createRouter().openapi(route, echo as never);
    const library = new OpenAPIHono({
      defaultHook: (result) => {
        if (!result.success) refuseInput(result.target, result.error);
      },
    }).openapi(route, echo as never);
    project.onError(onError);
    library.onError(onError);
    const init = { method: 'POST', headers: JSON_TYPE, body: '{"text":"hi"}' };
    const expected = await answer(library as unknown as OpenAPIHono, `/strict-early/${ID}`, init);
    expect(expected.status).toBe(400);
    expect(await answer(project as unknown as OpenAPIHono, `/strict-early/${ID}`, init)).toEqual(expected);
  });

  it('describes the routes as the library does', () => {
    const document = (router: OpenAPIHono) =>
      router.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    expect(document(project)).toEqual(document(library));
  });
});
