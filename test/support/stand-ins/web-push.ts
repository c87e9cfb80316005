/// <reference path="./http-ece.d.ts" />
import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
// An implementation of RFC 8188/8291 independent of the one under test (worker/notifications/push/aes128gcm.ts in workerd):
// Mozilla's http_ece on Node's own crypto.
import * as ece from 'http_ece';

/** What one push service answers; set by `PUT /web-push/<name>`, which also forgets what it received. */
export interface WebPushScript {
  /** The VAPID public key the Worker is configured with: every JWT is verified with it, else 403. */
  vapidPublicKey: string;
  /** Per subscription id, statuses answered in turn before the default 201 (e.g. [429] or [410]). */
  answers?: Record<string, number[]>;
  /** Sent with a scripted 429 or 5xx. */
  retryAfter?: string;
  /** Encrypted bodies longer than this are answered 413. */
  maxBodyBytes?: number;
  /** Sent as Location with a scripted 3xx: where the service redirects the push to. */
  location?: string;
  /** The body of every answer but a 201 (default `stand-in answer <status>`, or what was wrong with the VAPID JWT). */
  answerText?: string;
}

/** One push as the stand-in received it. */
export interface ReceivedPush {
  subscription: string;
  status: number;
  bodyBytes: number;
  headers: { ttl: string | null; urgency: string | null; topic: string | null; contentEncoding: string | null };
  /** The VAPID check: `null` when it passed, else what was wrong. */
  vapidProblem: string | null;
  claims: { aud?: string; exp?: number; sub?: string } | null;
  /** The decrypted payload, parsed as JSON; absent when it did not decrypt. */
  payload?: unknown;
  decryptProblem?: string;
}

export interface StandInSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : (value ?? null);
};

/** RFC 8292: `vapid t=<jwt>, k=<key>` verified with the configured key, for this origin, expiring within 24 hours. */
function checkVapid(
  authorization: string | null,
  configuredKey: string,
  origin: string,
): { problem: string | null; claims: ReceivedPush['claims'] } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!match) return { problem: `Authorization is not "vapid t=…, k=…": ${authorization}`, claims: null };
  const [, jwt, key] = match as unknown as [string, string, string];
  const [head, body, signature] = jwt.split('.') as [string, string, string];
  let claims: ReceivedPush['claims'] = null;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return { problem: 'the JWT claims are not JSON', claims };
  }
  if (key !== configuredKey) return { problem: 'k is not the configured VAPID public key', claims };
  const point = Buffer.from(configuredKey, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const alg = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')).alg;
  if (alg !== 'ES256') return { problem: `alg is ${alg}, not ES256`, claims };
  const valid = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) return { problem: 'the JWT signature does not verify with the configured key', claims };
  const now = Math.floor(Date.now() / 1000);
  if (claims?.aud !== origin) return { problem: `aud ${claims?.aud} is not ${origin}`, claims };
  if (!claims.exp || claims.exp <= now || claims.exp > now + 24 * 60 * 60)
    return { problem: `exp ${claims.exp} is not within the next 24 hours`, claims };
  if (!/^(mailto:|https:)/.test(claims.sub ?? ''))
    return { problem: `sub ${claims.sub} is not mailto: or https:`, claims };
  return { problem: null, claims };
}

/**
 * A push service (RFC 8030), one per name so parallel test files never share state:
 * - `POST /web-push/<name>/subscribe`: a new subscription as a browser's `subscription.toJSON()` gives it; the
 *   stand-in keeps its private key and auth secret to decrypt what is pushed to it;
 * - `POST /web-push/<name>/push/<id>`: a push, VAPID-checked (403 when wrong) and decrypted, answered 201;
 * - `PUT /web-push/<name>` with a WebPushScript; `GET /web-push/<name>/received`: what it received.
 */
export function createWebPushHandler() {
  interface Service {
    script: WebPushScript | null;
    received: ReceivedPush[];
    subscriptions: Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>;
  }
  const services = new Map<string, Service>();
  const service = (name: string) => {
    const found = services.get(name) ?? { script: null, received: [], subscriptions: new Map() };
    services.set(name, found);
    return found;
  };
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const match = /^\/web-push\/([\w.-]+)(\/subscribe|\/received|\/push\/([\w-]+))?$/.exec(path);
    if (!match) return false;
    const [, name, action, id] = match as unknown as [string, string, string | undefined, string | undefined];
    const state = service(name);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      return true;
    };
    if (req.method === 'PUT' && !action) {
      state.script = JSON.parse(body.toString('utf8'));
      state.received = [];
      res.writeHead(204).end();
      return true;
    }
    if (req.method === 'GET' && action === '/received') return json(200, state.received);
    const origin = `http://${req.headers.host}`;
    if (req.method === 'POST' && action === '/subscribe') {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const subscriptionId = randomUUID();
      state.subscriptions.set(subscriptionId, { ecdh, auth });
      return json(201, {
        endpoint: `${origin}/web-push/${name}/push/${subscriptionId}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      } satisfies StandInSubscription);
    }
    if (req.method !== 'POST' || !id) return false;
    const subscription = state.subscriptions.get(id);
    if (!subscription || !state.script) return json(404, { error: 'no such subscription (or no script)' });
    const { problem, claims } = checkVapid(header(req, 'authorization'), state.script.vapidPublicKey, origin);
    const received: ReceivedPush = {
      subscription: id,
      status: 201,
      bodyBytes: body.length,
      headers: {
        ttl: header(req, 'ttl'),
        urgency: header(req, 'urgency'),
        topic: header(req, 'topic'),
        contentEncoding: header(req, 'content-encoding'),
      },
      vapidProblem: problem,
      claims,
    };
    try {
      const plain = ece.decrypt(body, {
        version: 'aes128gcm',
        privateKey: subscription.ecdh,
        authSecret: subscription.auth.toString('base64url'),
      });
      received.payload = JSON.parse(plain.toString('utf8'));
    } catch (err) {
      received.decryptProblem = (err as Error).message;
    }
    const scripted = state.script.answers?.[id]?.shift();
    received.status = problem
      ? 403
      : scripted
        ? scripted
        : state.script.maxBodyBytes && body.length > state.script.maxBodyBytes
          ? 413
          : received.decryptProblem
            ? 400
            : 201;
    state.received.push(received);
    const retry = (received.status === 429 || received.status >= 500) && state.script.retryAfter;
    const redirect = received.status >= 300 && received.status < 400 && state.script.location;
    res
      .writeHead(received.status, {
        'content-type': 'text/plain',
        ...(received.status === 201 ? { location: `${origin}/web-push/${name}/message/${randomUUID()}` } : {}),
        ...(redirect ? { location: state.script.location } : {}),
        ...(retry ? { 'retry-after': state.script.retryAfter } : {}),
      })
      .end(received.status === 201 ? '' : (state.script.answerText ?? problem ?? `stand-in answer ${received.status}`));
    return true;
  };
}
