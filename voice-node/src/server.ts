import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { CLOSE, parseClientMessage, type ServerMessage } from './messages.js';
import { VoiceSession } from './session.js';
import type { VoiceSettings } from './settings.js';
import type { SpeechEngine } from './synthesis/engine.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Client frames are tiny control messages; anything bigger is not ours.
const MAX_CLIENT_FRAME_BYTES = 4096;

type ServerOptions = Pick<
  VoiceSettings,
  'host' | 'port' | 'maxSessions' | 'maxSpeakBytes' | 'pingIntervalMs' | 'leadMs' | 'chunkFrames'
>;

class BodyTooLarge extends Error {}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new BodyTooLarge();
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > limit) throw new BodyTooLarge();
    parts.push(part);
  }
  return Buffer.concat(parts);
}

/** The reply text of a speak body: JSON `{text}` or the raw text; null when there is none. */
export function speakText(body: Buffer, contentType: string | undefined): string | null {
  let text: unknown = body.toString('utf8');
  if (/^application\/json\b/i.test(contentType ?? '')) {
    try {
      text = (JSON.parse(text as string) as { text?: unknown } | null)?.text;
    } catch {
      return null;
    }
  }
  return typeof text === 'string' && text.trim() ? text : null;
}

/**
 * The voice box: `GET /health`, `POST /speak` (the session in `x-voice-session-id`; `/speak/:sessionId` too) and
 * the `/ws` WebSocket (docs/voice.md).
 * Resolves once it listens; `close()` ends every session and its processes.
 */
export async function startVoiceBox(options: ServerOptions, engine: SpeechEngine) {
  const sessions = new Map<string, VoiceSession>();
  const started = Date.now();
  const alive = new WeakMap<WebSocket, boolean>();

  const speak = async (req: IncomingMessage, res: ServerResponse, id: string) => {
    if (!UUID.test(id)) return json(res, 400, { error: 'The session id must be a UUID.' });
    const session = sessions.get(id.toLowerCase());
    if (!session) return json(res, 404, { error: 'No open voice session has this id.' });
    let body: Buffer;
    try {
      body = await readBody(req, options.maxSpeakBytes);
    } catch (err) {
      if (!(err instanceof BodyTooLarge)) throw err;
      res.setHeader('connection', 'close');
      return json(res, 413, { error: `The reply text is limited to ${options.maxSpeakBytes} bytes.` });
    }
    const text = speakText(body, req.headers['content-type']);
    if (text === null) {
      return json(res, 400, { error: 'Send the reply text as text/plain, or as JSON {"text": "..."}.' });
    }
    session.speak(text);
    json(res, 202, { accepted: true });
  };

  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://voice');
    // The session in the x-voice-session-id header (what the Worker sends: a path is kept in access logs), or in
    // the path as the interface spec first named it.
    const speakMatch = /^\/speak(?:\/([^/]+))?$/.exec(pathname);
    if (req.method === 'GET' && pathname === '/health') {
      return json(res, 200, { ok: true, sessions: sessions.size, uptime: Math.round((Date.now() - started) / 1000) });
    }
    if (req.method === 'POST' && speakMatch) {
      const id = speakMatch[1] ? decodeURIComponent(speakMatch[1]) : String(req.headers['x-voice-session-id'] ?? '');
      return void speak(req, res, id).catch((err: Error) => {
        console.error(`[voice] speak failed: ${err.message}`);
        if (!res.headersSent) json(res, 500, { error: 'Internal error.' });
      });
    }
    json(res, 404, { error: `No route for ${req.method} ${pathname}.` });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_FRAME_BYTES });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://voice').pathname !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req));
  });

  const accept = (ws: WebSocket, req: IncomingMessage) => {
    // Over the cap the socket is accepted and closed at once, so the client reads a close code, not a failed handshake.
    if (sessions.size >= options.maxSessions) return ws.close(CLOSE.tryAgainLater.code, CLOSE.tryAgainLater.reason);
    const send = (message: ServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    // The Worker names the session when it routes by session id to a container instance (worker/companion/voice/service.ts).
    const named = String(req.headers['x-voice-session-id'] ?? '').toLowerCase();
    const id = UUID.test(named) && !sessions.has(named) ? named : randomUUID();
    const session = new VoiceSession(id, send, engine, options);
    sessions.set(session.id, session);
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    ws.on('message', (data, isBinary) => {
      const message = isBinary ? { invalid: 'Binary frames are not read.' } : parseClientMessage(data.toString());
      if ('invalid' in message) send({ type: 'error', error: message.invalid });
      else session.bargeIn();
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      session.close();
      sessions.delete(session.id);
    });
    send({ type: '_ready', sessionId: session.id });
  };

  // A client that vanished without a close (a dropped network) misses one pong and is cut loose, ending its session.
  const pinger = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.get(ws)) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, options.pingIntervalMs);
  pinger.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    sessions: sessions as ReadonlyMap<string, VoiceSession>,
    /** Closes every socket with 1001, stops every synthesis, then stops listening. */
    async close() {
      clearInterval(pinger);
      for (const session of sessions.values()) session.close();
      for (const ws of wss.clients) ws.close(CLOSE.goingAway.code, CLOSE.goingAway.reason);
      await new Promise<void>((resolve) => {
        setTimeout(() => {
          for (const ws of wss.clients) ws.terminate();
        }, 500).unref();
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
    },
  };
}

export type VoiceBox = Awaited<ReturnType<typeof startVoiceBox>>;
