// What checking a route's inputs costs workerd per request: the message route's definition (path id, the sender's
// socket header, the JSON body) served by the project's router (one middleware for every input,
// worker/platform/http/request-validation.ts), by @hono/zod-openapi's own validators (one middleware per input), and
// by a plain fetch handler reading the same three inputs unchecked, for the floor. Each is asked N times in a loop
// inside the Worker, so the figure is the runtime's CPU for one request through the router, the Request made included.
// Run: npx tsx bench/request-validation.ts   (N=10000 requests per round, ROUNDS=7; medians)
import { builtinModules } from 'node:module';
import { isWorkerd, processSnapshot, treeCpu } from './process-cpu';
import { scriptInWorkerd } from './script-in-workerd';

const N = Number(process.env.N ?? 10000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);

// The message route's schemas as worker/social/messages/schema.ts defines them, restated here because that module
// imports the database driver, which this bundle does not carry.
const WORKER = `
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { createRouter, defineRoute, jsonBody, jsonResponse, refuseInput } from './worker/platform/http/openapi';
import { pathId } from './worker/platform/http/ids';
import { LIMITS } from './worker/platform/limits';

const route = defineRoute({
  method: 'post',
  path: '/api/conversations/{id}/messages',
  request: {
    params: z.object({ id: pathId('id') }),
    headers: z.object({ 'x-socket-id': z.string().max(64).optional() }),
    ...jsonBody(z.object({ text: z.string().trim().min(1).max(LIMITS.conversation.messageTextMax) }).strict()),
  },
  responses: { 201: jsonResponse(z.object({ id: z.string(), text: z.string() }), 'Sent') },
});
const handler = (c) =>
  c.json({ id: c.req.valid('param').id, text: c.req.valid('json').text, sid: c.req.valid('header')['x-socket-id'] }, 201);
const servers = {
  project: createRouter().openapi(route, handler),
  library: new OpenAPIHono({
    defaultHook: (result) => {
      if (!result.success) refuseInput(result.target, result.error);
    },
  }).openapi(route, handler),
  unchecked: {
    async fetch(request) {
      const id = /^\\/api\\/conversations\\/([0-9a-f]{24})\\/messages$/.exec(new URL(request.url).pathname)[1];
      const { text } = await request.json();
      const sid = request.headers.get('x-socket-id');
      return new Response(JSON.stringify({ id, text, sid }), { status: 201, headers: { 'content-type': 'application/json' } });
    },
  },
};
// What a phone sends beside the route's own headers.
const headers = {
  'content-type': 'application/json',
  'x-auth-token': 'eyJhbGciOiJIUzI1NiJ9.eyJfaWQiOiI2NTJmMWUzYjRhNWM2ZDdlOGY5MDEyMzQifQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmU',
  'x-socket-id': 'k3Jd9sLq0aPz.Xy',
  'user-agent': 'okhttp/4.12.0',
  accept: 'application/json',
  'accept-encoding': 'gzip',
  'cf-connecting-ip': '203.0.113.9',
  'x-forwarded-proto': 'https',
};
export default {
  async fetch(request) {
    const params = new URL(request.url).searchParams;
    const server = servers[params.get('server')];
    let answered = 0;
    for (let i = 0, n = Number(params.get('n')); i < n; i++) {
      const response = await server.fetch(
        new Request('https://rider.test/api/conversations/652f1e3b4a5c6d7e8f901234/messages', {
          method: 'POST',
          headers,
          body: JSON.stringify({ text: 'see you at the bowl ' + i }),
        }),
      );
      if (response.status === 201) answered++;
      await response.arrayBuffer();
    }
    return new Response(String(answered));
  },
};`;

const SERVERS = ['unchecked', 'library', 'project'] as const;
const mf = await scriptInWorkerd(WORKER, { loader: 'js', discardLogs: true, external: builtinModules });
const url = await mf.ready;
const workerdSeconds = () => treeCpu(processSnapshot(), process.pid, isWorkerd).part;

try {
  const perServer = new Map<string, number[]>(SERVERS.map((server) => [server, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of SERVERS) {
      const before = workerdSeconds();
      const answered = Number(await (await mf.dispatchFetch(`${url}?server=${server}&n=${N}`)).text());
      if (answered !== N) throw new Error(`${server} answered ${answered} of ${N} requests with 201`);
      perServer.get(server)!.push(((workerdSeconds() - before) * 1e6) / N);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
  console.log(`workerd CPU per message-route request: medians of ${ROUNDS} rounds of ${N} requests`);
  console.log('| served by | µs each | range |\n|---|---|---|');
  for (const server of SERVERS) {
    const xs = perServer.get(server)!;
    console.log(`| ${server} | ${median(xs).toFixed(1)} | ${range(xs)} |`);
  }
} finally {
  await mf.dispose();
}
