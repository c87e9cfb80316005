import type { IncomingMessage, ServerResponse } from 'node:http';

/** What one Expo project answers; set by `PUT /expo-push/<name>`, which also forgets earlier requests. */
export interface ExpoScript {
  /** Tokens whose send ticket is an error with this code (e.g. DeviceNotRegistered). */
  ticketErrors?: Record<string, string>;
  /** Tokens whose receipt is an error with this code (DeviceNotRegistered, MessageRateExceeded, ...). */
  receiptErrors?: Record<string, string>;
  /** A send request carrying one of these tokens is answered with `status` (429, 500, 503) this many times first. */
  failFirst?: Record<string, { status: number; times: number }>;
}

/** A request as the stand-in received it. */
export interface RecordedExpoRequest {
  kind: 'send' | 'getReceipts';
  /** The messages of a send, or `{ids}` of getReceipts. */
  body: unknown;
  authorization: string | null;
  /** What the stand-in answered. */
  status: number;
}

const EXPO_LIMIT = 100;

const expoError = (code: string, message: string) => JSON.stringify({ errors: [{ code, message }] });

/**
 * Expo's push API (https://docs.expo.dev/push-notifications/sending-notifications/), one project per name
 * so parallel test files never share state:
 * - `POST /expo-push/<name>/--/api/v2/push/send`: tickets in message order; more than 100 messages is a 400;
 * - `POST /expo-push/<name>/--/api/v2/push/getReceipts` with `{ids}`: receipts of the tickets it issued;
 * - `PUT /expo-push/<name>` with an ExpoScript; `GET /expo-push/<name>/requests`: what it received.
 */
export function createExpoPushHandler() {
  interface Project {
    script: ExpoScript;
    requests: RecordedExpoRequest[];
    /** Ticket id → token, for the receipts. */
    tickets: Map<string, string>;
    /** Token → failures answered so far (failFirst). */
    failures: Map<string, number>;
  }
  const fresh = (script: ExpoScript = {}): Project => ({
    script,
    requests: [],
    tickets: new Map(),
    failures: new Map(),
  });
  const projects = new Map<string, Project>();
  const project = (name: string) => {
    const existing = projects.get(name);
    if (existing) return existing;
    const created = fresh();
    projects.set(name, created);
    return created;
  };
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const match = /^\/expo-push\/([\w.-]+)(\/--\/api\/v2\/push\/(?:send|getReceipts)|\/requests)?$/.exec(path);
    if (!match) return false;
    const [, name, action] = match as unknown as [string, string, string | undefined];
    const state = project(name);
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.method === 'PUT' && !action) {
      projects.set(name, fresh(JSON.parse(text)));
      res.writeHead(204).end();
      return true;
    }
    if (req.method === 'GET' && action === '/requests') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.requests));
      return true;
    }
    if (req.method !== 'POST' || !action) return false;
    const body = JSON.parse(text);
    const authorization = req.headers.authorization ?? null;
    const answer = (kind: RecordedExpoRequest['kind'], status: number, payload: string, headers = {}) => {
      state.requests.push({ kind, body, authorization, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(payload);
      return true;
    };
    if (action.endsWith('/getReceipts')) {
      const data: Record<string, unknown> = {};
      for (const id of body.ids as string[]) {
        const token = state.tickets.get(id);
        if (!token) continue;
        const code = state.script.receiptErrors?.[token];
        data[id] = code
          ? { status: 'error', message: `"${token}" failed: ${code}`, details: { error: code } }
          : { status: 'ok' };
      }
      return answer('getReceipts', 200, JSON.stringify({ data }));
    }
    const messages: { to: string }[] = Array.isArray(body) ? body : [body];
    if (messages.length > EXPO_LIMIT) {
      return answer('send', 400, expoError('PUSH_TOO_MANY_NOTIFICATIONS', `More than ${EXPO_LIMIT} messages.`));
    }
    for (const { to } of messages) {
      const rule = state.script.failFirst?.[to];
      const used = state.failures.get(to) ?? 0;
      if (rule && used < rule.times) {
        state.failures.set(to, used + 1);
        const code = rule.status === 429 ? 'TOO_MANY_REQUESTS' : 'INTERNAL_SERVER_ERROR';
        return answer('send', rule.status, expoError(code, 'stand-in failure'), { 'retry-after': '0' });
      }
    }
    const data = messages.map(({ to }) => {
      const code = state.script.ticketErrors?.[to];
      if (code)
        return { status: 'error', message: `"${to}" failed: ${code}`, details: { error: code, expoPushToken: to } };
      const id = crypto.randomUUID();
      state.tickets.set(id, to);
      return { status: 'ok', id };
    });
    return answer('send', 200, JSON.stringify({ data }));
  };
}
