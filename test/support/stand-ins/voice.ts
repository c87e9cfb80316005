import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';

/** How a test's voice box answers speak requests: accepts, fails, or never answers. */
export type VoiceMode = 'ok' | 'fail' | 'hang';

/**
 * The voice box's speak endpoint (the interface spec, Voice service), one box per name:
 * - `POST /voice/<name>/speak` with the session in `x-voice-session-id`, or `POST /voice/<name>/speak/<sessionId>`:
 *   202 and recorded, 500, or no answer, per mode;
 * - `PUT /voice/<name>` with `{mode}`: switches it;
 * - `GET /voice/<name>/spoken`: the speak requests received, `{sessionId, body}` each;
 * - `GET /voice/<name>/paths`: the paths they were sent to, as a proxy's access log would keep them.
 * WebSocket upgrades of `/voice/<name>/ws` are answered by `upgradeVoice`.
 */
export function createVoiceHandler() {
  const boxes = new Map<string, { mode: VoiceMode; spoken: { sessionId: string; body: unknown }[]; paths: string[] }>();
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const match = /^\/voice\/([\w.-]+)(?:\/(speak)(?:\/([^/]+))?|\/(spoken|paths))?$/.exec(path);
    if (!match) return false;
    const [, name, speak, inPath, listing] = match as unknown as [
      string,
      string,
      string | undefined,
      string | undefined,
      string | undefined,
    ];
    const sessionId = speak ? (inPath ?? String(req.headers['x-voice-session-id'] ?? '')) : undefined;
    const spoken = listing;
    const box = boxes.get(name) ?? { mode: 'ok' as VoiceMode, spoken: [], paths: [] };
    boxes.set(name, box);
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.method === 'PUT' && !sessionId && !spoken) {
      box.mode = (JSON.parse(body) as { mode: VoiceMode }).mode;
      res.writeHead(204).end();
      return true;
    }
    if (req.method === 'GET' && spoken) {
      const listed = spoken === 'paths' ? box.paths : box.spoken;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(listed));
      return true;
    }
    if (req.method !== 'POST' || !sessionId) return false;
    box.paths.push(path);
    box.spoken.push({ sessionId, body: body ? JSON.parse(body) : null });
    if (box.mode === 'hang') return true;
    if (box.mode === 'fail') res.writeHead(500, { 'content-type': 'text/plain' }).end('voice box broke');
    else res.writeHead(202, { 'content-type': 'application/json' }).end('{"queued":true}');
    return true;
  };
}

const sockets = new WebSocketServer({ noServer: true });

/**
 * The voice box's `/ws` as far as the Worker sees it: the upgrade, then `_ready` naming the session id the
 * Worker sent in x-voice-session-id (voice-node/src/server.ts keeps it the same way). False for other paths.
 */
export function upgradeVoice(req: IncomingMessage, socket: Duplex, head: Buffer, path: string): boolean {
  if (!/^\/voice\/[\w.-]+\/ws$/.test(path)) return false;
  sockets.handleUpgrade(req, socket, head, (ws) => {
    ws.send(JSON.stringify({ type: '_ready', sessionId: String(req.headers['x-voice-session-id'] ?? '') }));
  });
  return true;
}

/** Ends every stand-in voice socket, which would otherwise keep the server from closing. */
export function closeVoiceSockets(): void {
  for (const ws of sockets.clients) ws.terminate();
}
