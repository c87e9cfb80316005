import { describe, expect, it } from 'vitest';
import { createApp } from '../../../worker/app';
import { seedAccount } from '../../support/accounts';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { UNREACHABLE_ANSWER_MS } from '../../support/unreachable-bound';
import { createApi } from '../../support/worker-api';

const api = createApi('foundation');

describe('health and API description', () => {
  it('reports the database up', async () => {
    const res = await api.fetch('/api/health');
    expect(res.status).toBe(200);
    const body = await res.json<{ ok: boolean; db: string; version: string }>();
    expect(body).toEqual({
      ok: true,
      db: 'up',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      retrieval: 'keyword',
    });
  });

  it('serves an OpenAPI 3.1 document built from the route schemas', async () => {
    const res = await api.fetch('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = await res.json<any>();
    expect(doc.openapi).toBe('3.1.0');
    const register = doc.paths['/api/users'].post;
    expect(register.requestBody.content['application/json'].schema.required).toEqual(['name', 'email', 'password']);
    expect(doc.paths['/api/users/{id}'].delete.security).toEqual([{ 'authorization-bearer': [] }]);
    expect(doc.paths['/api/users/me'].get.security).toEqual([{ 'x-auth-token': [] }]);
    // Security schemes are named for the header each check reads.
    expect(doc.components.securitySchemes['x-auth-token']).toMatchObject({ in: 'header', name: 'x-auth-token' });
    expect(doc.components.securitySchemes['authorization-bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/admin/users'].get.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['q', 'limit', 'cursor']),
    );
  });

  it('documents every route it serves but the files a browser loads for a page (scripts, stylesheets, favicon)', async () => {
    const doc = await (await api.fetch('/api/openapi.json')).json<any>();
    const served = createApp()
      .routes.filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
      .filter((route) => !/\.(js|css|ico)$/.test(route.path))
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(served.length).toBeGreaterThan(10);
    expect(served.filter((route) => !documented.includes(route))).toEqual([]);
    const untagged = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) =>
      Object.entries(ops)
        .filter(([, op]: [string, any]) => !op.tags?.length)
        .map(([method]) => `${method} ${path}`),
    );
    expect(untagged).toEqual([]);
  });

  it("describes operations only: no page's script or stylesheet is listed as one", async () => {
    const { paths } = await (await api.fetch('/api/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(paths).filter((path) => /\.(js|css)$/.test(path))).toEqual([]);
    // Still served, beside the pages that load them.
    expect((await api.fetch('/api/docs/styles.css')).status).toBe(200);
    expect((await api.fetch('/admin/ops/chart.umd.min.js')).status).toBe(200);
  });

  it('serves a docs page', async () => {
    const res = await api.fetch('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const page = await res.text();
    expect(page).toContain('/api/openapi.json');
    expect(page).toContain('<script src="/api/docs/app.js">');
    // The page names every scheme the Authorize dialog shows; its script starts the renderer on the served document.
    const { components } = await (await api.fetch('/api/openapi.json')).json<{
      components: { securitySchemes: object };
    }>();
    const schemes = Object.values(components.securitySchemes) as { scheme?: string; name?: string }[];
    expect(schemes.length).toBeGreaterThan(2);
    for (const scheme of schemes) {
      expect(page).toContain(
        scheme.scheme === 'bearer' ? '<code>Authorization: Bearer</code>' : `<code>${scheme.name}</code>`,
      );
    }
    expect(page).not.toMatch(/\btwo\b/);
    const script = await (await api.fetch('/api/docs/app.js')).text();
    expect(script).toContain("url: '/api/openapi.json'");
  });
});

describe('error model', () => {
  it('lets browsers send every header the docs name (CORS preflight), x-socket-id included', async () => {
    const res = await createApp().request('/api/conversations/x/messages', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://rider.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-auth-token,x-socket-id,x-voice-session',
      },
    });
    expect(res.status).toBe(204);
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'x-auth-token', 'x-socket-id', 'x-voice-session']));
  });

  it('lets a browser on any origin read every API answer and the headers the clients use: an answer, a refusal, a 404', async () => {
    const rider = await seedAccount(api);
    const answers = [
      await api.fetch('/api/users/me', { headers: { origin: 'https://rider.example', 'x-auth-token': rider.token } }),
      await api.fetch('/api/users/me', { headers: { origin: 'https://rider.example' } }),
      await api.fetch('/api/nope', { headers: { origin: 'chrome-extension://abcdefghijklmnop' } }),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 401, 404]);
    for (const res of answers) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim());
      expect(exposed).toEqual(
        expect.arrayContaining(['x-auth-token', 'retry-after', 'www-authenticate', 'x-request-id']),
      );
      expect(res.headers.get('x-request-id')).toMatch(/\S/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('answers unknown routes with 404 JSON', async () => {
    const res = await api.fetch('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'No route for GET /api/nope.' });
  });

  it('answers malformed JSON with 400 JSON', async () => {
    const res = await api.fetch('/api/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toMatch(/json/i);
  });

  it('lists every invalid field with 400 details', async () => {
    const res = await api.fetch('/api/users', {
      method: 'POST',
      json: { name: '', email: 'not-an-email', password: 'short' },
    });
    expect(res.status).toBe(400);
    const body = await res.json<{ error: string; details: { field: string }[] }>();
    expect(body.details.map((d) => d.field).sort()).toEqual(['email', 'name', 'password']);
  });

  it('refuses bodies over 1 MB with 413', async () => {
    const res = await api.fetch('/api/users', {
      method: 'POST',
      json: { name: 'x'.repeat(1024 * 1024 + 10), email: 'a@b.co', password: 'longenough' },
    });
    expect(res.status).toBe(413);
    expect((await res.json<{ error: string }>()).error).toMatch(/too large/);
  });

  it.each(['gateway', 'direct'])(
    "answers 503 JSON within seconds, not the driver's 30 s, when the database is unreachable (DB_ACCESS=%s)",
    async (mode) => {
      const down = createApi(
        `foundation-down-${mode}`,
        { MONGODB_URI: 'mongodb://127.0.0.1:9', DB_ACCESS: mode },
        { indexes: false },
      );
      let started = Date.now();
      let health = new Response();
      const lines = await captureLogLines(async () => {
        health = await down.fetch('/api/health');
      });
      expect(Date.now() - started).toBeLessThan(UNREACHABLE_ANSWER_MS);
      expect(health.status).toBe(503);
      expect(eventLines(lines, 'health.db-ping.failed')).toEqual([
        expect.objectContaining({
          level: 'error',
          error: expect.any(String),
          requestId: health.headers.get('x-request-id'),
        }),
      ]);
      expect(await health.json()).toMatchObject({ ok: false, db: 'down' });
      started = Date.now();
      const data = await down.fetch('/api/users', {
        method: 'POST',
        json: { name: 'Kim', email: 'kim@example.com', password: 'password123' },
      });
      expect(Date.now() - started).toBeLessThan(UNREACHABLE_ANSWER_MS);
      expect(data.status).toBe(503);
      expect(await data.json()).toEqual({ error: 'The database is unavailable. Try again shortly.' });
    },
  );

  it('names a missing secret instead of falling back to a default', async () => {
    const unconfigured = createApi('foundation-nosecret', { JWT_SECRET: undefined });
    const res = await unconfigured.fetch('/api/users', {
      method: 'POST',
      json: { name: 'Kim', email: 'kim@example.com', password: 'password123' },
    });
    expect(res.status).toBe(500);
    expect((await res.json<{ error: string }>()).error).toContain('JWT_SECRET is not set');
  });
});
