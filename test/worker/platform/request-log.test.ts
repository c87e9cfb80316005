import { describe, expect, it } from 'vitest';
import { describeError, redacted } from '../../../worker/platform/ops/log-line';
import { registerThroughRoute } from '../../support/accounts';
import { AnalyticsEngineStandIn } from '../../support/analytics-engine-stand-in';
import { newPost } from '../../support/feed';
import { captureLogLines, leakedSecrets } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

const metrics = new AnalyticsEngineStandIn();
const api = createApi('request_log', { METRICS: metrics });

const requestLines = (lines: string[]) =>
  lines.flatMap((line) => {
    try {
      const parsed = JSON.parse(line);
      return parsed.kind === 'request' ? [parsed] : [];
    } catch {
      return [];
    }
  });

describe('the request log', () => {
  it("answers x-request-id and writes one JSON line per request under that id, with the route's pattern", async () => {
    const rider = await registerThroughRoute(api);
    const { _id: postId } = await newPost(api, rider);
    let answeredId = '';
    const lines = await captureLogLines(async () => {
      const res = await api.fetch(`/api/feed/${postId}/reactions`, {
        method: 'PUT',
        headers: { 'x-auth-token': rider.token },
        json: { type: 'love' },
      });
      expect(res.status).toBe(200);
      answeredId = res.headers.get('x-request-id') ?? '';
    });
    expect(answeredId).toMatch(/^[0-9a-f-]{36}$/);
    const mine = requestLines(lines).filter((line) => line.requestId === answeredId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 'info',
      method: 'PUT',
      route: '/api/feed/:postId/reactions',
      status: 200,
      riderId: rider._id,
      dbCalls: expect.any(Number),
    });
    expect(mine[0].dbCalls).toBeGreaterThan(0);
    expect(new Date(mine[0].time).toISOString()).toBe(mine[0].time);
    for (const field of ['durationMs', 'dbMs', 'gatewayMs']) expect(mine[0][field]).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(mine[0])).not.toContain(postId);
  });

  it("takes Cloudflare's ray id as the request id, and never a client's free text", async () => {
    const ray = await api.fetch('/api/health', { headers: { 'cf-ray': '8f2b1c3d4e5f6a7b-LAX' } });
    expect(ray.headers.get('x-request-id')).toBe('8f2b1c3d4e5f6a7b-LAX');
    const forged = await api.fetch('/api/health', { headers: { 'cf-ray': '"injected":"line"' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('names the route pattern of a refused request and of an unknown path, never the raw path', async () => {
    const lines = await captureLogLines(async () => {
      expect((await api.fetch('/api/users/me')).status).toBe(401);
      expect((await api.fetch('/api/no/such/path/secret-looking')).status).toBe(404);
    });
    // The contract check reads the served API document once per file, through the Worker too.
    const logged = requestLines(lines).filter((line) => line.route !== '/api/openapi.json');
    expect(logged.map((line) => [line.route, line.status])).toEqual([
      ['/api/users/me', 401],
      // No route matched: the pattern is the last middleware's, still no raw path.
      ['/api/*', 404],
    ]);
  });

  it('names the rider on a route where the token is optional, when a valid one is sent, and no one without it', async () => {
    const rider = await registerThroughRoute(api);
    const { _id: postId } = await newPost(api, rider);
    const lines = await captureLogLines(async () => {
      expect((await api.fetch(`/api/feed/${postId}`, { headers: { 'x-auth-token': rider.token } })).status).toBe(200);
      expect((await api.fetch(`/api/feed/${postId}`)).status).toBe(200);
    });
    const logged = requestLines(lines).filter((line) => line.route === '/api/feed/:postId');
    expect(logged.map((line) => line.riderId)).toEqual([rider._id, undefined]);
  });

  it('holds no token sent in a URL: the socket and voice query, a push token in the path', async () => {
    const rider = await registerThroughRoute(api);
    const pushToken = 'ExponentPushToken[a1B2c3D4e5F6g7H8i9J0kL]';
    const lines = await captureLogLines(async () => {
      await api.fetch(`/socket.io/?EIO=4&transport=polling&token=${rider.token}`);
      await api.fetch(`/voice/ws?token=${rider.token}`);
      await api.fetch(`/api/push-tokens/${encodeURIComponent(pushToken)}`, {
        method: 'DELETE',
        headers: { 'x-auth-token': rider.token },
      });
    });
    expect(requestLines(lines).map((line) => line.route)).toEqual([
      '/socket.io/',
      '/voice/ws',
      '/api/push-tokens/:token',
    ]);
    expect(leakedSecrets(lines, { token: rider.token, pushToken: 'a1B2c3D4e5F6g7H8i9J0kL' })).toEqual([]);
  });

  it("answers a browser's /favicon.ico with 204 and keeps it out of the request log and the ops figures", async () => {
    const before = metrics.points.length;
    const lines = await captureLogLines(async () => {
      const res = await api.fetch('/favicon.ico');
      expect(res.status).toBe(204);
      expect(res.headers.get('cache-control')).toContain('max-age');
    });
    expect(requestLines(lines)).toEqual([]);
    expect(metrics.points.length).toBe(before);
  });

  it('writes one metrics data point per request: route pattern, method, status class, latency', async () => {
    const before = metrics.points.length;
    await api.fetch('/api/users/me');
    const point = metrics.points.at(-1);
    expect(metrics.points.length).toBe(before + 1);
    expect(point?.blobs).toEqual(['/api/users/me', 'GET', '4xx']);
    expect(point?.indexes).toEqual(['/api/users/me']);
    expect(point?.doubles[1]).toBe(401);
    expect(point?.doubles[0]).toBeGreaterThanOrEqual(0);
  });

  it('holds no token, password, email or message text through a whole flow of a rider', async () => {
    const secrets: Record<string, string> = {};
    const lines = await captureLogLines(async () => {
      const rider = await registerThroughRoute(api, { password: 'hunter2-plaza-secret' });
      const friend = await registerThroughRoute(api);
      Object.assign(secrets, {
        token: rider.token,
        friendToken: friend.token,
        password: rider.password,
        email: rider.email,
        friendEmail: friend.email,
      });
      const signIn = await api.fetch('/api/auth', {
        method: 'POST',
        json: { email: rider.email, password: rider.password },
      });
      secrets.signInToken = (await signIn.json<{ token: string }>()).token;
      await api.fetch('/api/auth', { method: 'POST', json: { email: rider.email, password: 'wrong-password-xyz' } });
      secrets.wrongPassword = 'wrong-password-xyz';
      await api.fetch('/api/users/me', {
        method: 'PATCH',
        headers: { 'x-auth-token': rider.token },
        json: { name: 'Plaza Rider' },
      });
      // A duplicate email: the driver's E11000 message quotes the address it refused.
      await api.fetch(`/api/users/${rider._id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${rider.token}` },
        json: { email: friend.email },
      });
      await newPost(api, rider, { text: 'Kickflip at the plaza' });
      const conversation = await api.fetch('/api/conversations', {
        method: 'POST',
        headers: { 'x-auth-token': rider.token },
        json: { participantIds: [friend._id] },
      });
      const { _id: conversationId } = await conversation.json<{ _id: string }>();
      secrets.messageText = 'meet me at the secret ledge behind the library';
      await api.fetch(`/api/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'x-auth-token': rider.token },
        json: { text: secrets.messageText },
      });
      await api.fetch('/api/users/me', { headers: { 'x-auth-token': `${rider.token}tampered` } });
      await api.fetch('/api/users/me/password', {
        method: 'PUT',
        headers: { 'x-auth-token': rider.token },
        json: { currentPassword: rider.password, newPassword: 'another-long-secret-9' },
      });
      secrets.newPassword = 'another-long-secret-9';
    });
    expect(requestLines(lines).length).toBeGreaterThanOrEqual(10);
    expect(leakedSecrets(lines, secrets)).toEqual([]);
  });

  it('the scan finds a token, an email or a password that a line holds', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJfaWQiOiIxMjMifQ.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw';
    const lines = [JSON.stringify({ kind: 'request', note: `token ${token}` }), 'Rider@Example.com signed in'];
    expect(leakedSecrets(lines, { token, email: 'rider@example.com', password: 'not-here' })).toEqual([
      'token',
      'email',
    ]);
  });

  it("takes addresses and token-shaped runs out of an error's text before it is logged", () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJfaWQiOiIxMjMifQ.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw';
    const err = new Error(`E11000 duplicate key error dup key: { email: "a.rider@example.com" } ${token}`);
    const line = describeError(err);
    expect(line).not.toContain('a.rider@example.com');
    expect(line).not.toContain(token);
    expect(redacted('fine text')).toBe('fine text');
  });

  it('takes tokens out of a URL quoted in free text: a token query, a push token in a path, a voice session path', () => {
    const session = '6f1c2a9e-3b4d-4c8e-9a1f-0b2c3d4e5f60';
    const text = redacted(
      `fetch failed: /socket.io/?EIO=4&token=short.tok&t=1 /api/push-tokens/ExponentPushToken%5BxYz123%5D /speak/${session} /voice/ws?x=1&token=abc`,
    );
    for (const secret of ['short.tok', 'xYz123', session, 'token=abc']) expect(text).not.toContain(secret);
    expect(text).toContain('/socket.io/?EIO=4&token=[token]&t=1');
    expect(text).toContain('/speak/[token]');
  });
});
