import { describe, expect, it } from 'vitest';
import { defineRoute, textResponse, withDocs } from '../../../worker/platform/http/openapi';
import { type ApiDocument, contractViolation } from '../../support/response-contract';
import { apiDocument, createApi } from '../../support/worker-api';

// test/support/worker-api.ts checks every response the suite receives with contractViolation;
// these tests prove that check refuses what it must.
const api = createApi('api-description');
const url = (path: string) => `http://rider.test${path}`;
const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const text = (body: string, status: number) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=UTF-8' } });

const doc = (): Promise<ApiDocument> => apiDocument(api.env);
const user = {
  _id: '0123456789abcdef01234567',
  name: 'Kim',
  email: 'kim@example.com',
  emailVerified: false,
  role: null,
  createdAt: '2026-11-23T00:00:00.000Z',
  updatedAt: '2026-11-23T00:00:00.000Z',
};

describe('the response check against the API description', () => {
  it('accepts a response that matches its documented schema', async () => {
    expect(await contractViolation(await doc(), 'GET', url('/api/users/me'), json(user, 200))).toBeNull();
    expect(await contractViolation(await doc(), 'GET', url('/api/users/me'), text('Invalid token.', 400))).toBeNull();
  });

  it('refuses a JSON body that does not match', async () => {
    const { email: _dropped, ...noEmail } = user;
    const violation = await contractViolation(await doc(), 'GET', url('/api/users/me'), json(noEmail, 200));
    expect(violation).toMatch(/GET \/api\/users\/me → 200: body does not match/);
    expect(violation).toContain('email');
  });

  it('refuses a status the route does not document', async () => {
    const violation = await contractViolation(await doc(), 'GET', url('/api/users/me'), json({ error: 'x' }, 418));
    expect(violation).toMatch(/418: status not documented/);
  });

  it('refuses a Live access text that is not the documented one', async () => {
    const violation = await contractViolation(await doc(), 'GET', url('/api/users/me'), text('Access denied!', 401));
    expect(violation).toMatch(/401: body does not match/);
  });

  it('refuses a media type the status does not document', async () => {
    // A 404 of an account route is JSON only (a 401 or 403 of the access checks may be either: a token past its exp,
    // a suspended account).
    const path = url('/api/users/0123456789abcdef01234567');
    const violation = await contractViolation(await doc(), 'PATCH', path, text('Account not found.', 404));
    expect(violation).toMatch(/text\/plain not documented/);
  });

  it('refuses a response without a header it documents as required', async () => {
    const session = { token: 'a.b.c', user };
    const withHeader = json(session, 201);
    withHeader.headers.set('x-auth-token', 'a.b.c');
    expect(await contractViolation(await doc(), 'POST', url('/api/users'), withHeader)).toBeNull();
    const violation = await contractViolation(await doc(), 'POST', url('/api/users'), json(session, 201));
    expect(violation).toMatch(/documented header x-auth-token missing/);
  });

  it('matches a literal path before a parameterised one', async () => {
    const violation = await contractViolation(await doc(), 'PATCH', url('/api/users/me'), text('Access denied.', 403));
    // PATCH /api/users/{id} documents a plain-text 403; /me answers its 403 (a suspended account) in JSON only.
    expect(violation).toMatch(/PATCH \/api\/users\/me → 403: text\/plain not documented/);
  });
});

describe('bodies that are not JSON', () => {
  it('answers a form-encoded body with 415 and says JSON is expected', async () => {
    const res = await api.fetch('/api/users', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Kim&email=kim%40example.com&password=password123',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: 'Expected a JSON body: send it with content-type: application/json.' });
    expect(await api.db((db) => db.collection('users').countDocuments({ email: 'kim@example.com' }))).toBe(0);
  });
});

describe('what middleware add to a route description', () => {
  it('joins two plain-text refusals under one status into one set of texts', () => {
    const passThrough = async (_c: unknown, next: () => Promise<void>) => next();
    const one = withDocs(passThrough, { responses: { 403: textResponse(['First.']) } });
    const two = withDocs(async (c: unknown, next: () => Promise<void>) => passThrough(c, next), {
      responses: { 403: textResponse(['Second.']) },
    });
    const route = defineRoute({
      method: 'get',
      path: '/merged',
      middleware: [one, two],
      responses: { 200: { description: 'ok' } },
    });
    const forbidden = (route.responses as Record<number, unknown>)[403] as {
      content: Record<string, { schema: { options: string[] } }>;
    };
    expect(forbidden.content['text/plain']!.schema.options).toEqual(['First.', 'Second.']);
  });
});
