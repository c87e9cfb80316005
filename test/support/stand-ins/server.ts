import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEventSourcesHandler } from './event-sources';
import { createExpoPushHandler } from './expo-push';
import { createJwksHandler } from './jwks';
import { createModerationHandler } from './moderation';
import { createOpenAiHandler } from './openai';
import { closeVoiceSockets, createVoiceHandler, upgradeVoice } from './voice';
import { createWebPushHandler } from './web-push';

type Handler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/**
 * One local HTTP server standing in for every outside service the Worker calls, each
 * speaking that service's real protocol under its own path prefix.
 */
export async function startStandIns(): Promise<{ url: string; close(): Promise<void> }> {
  const handlers: Handler[] = [
    createJwksHandler(),
    createEventSourcesHandler(),
    createOpenAiHandler(),
    createVoiceHandler(),
    createExpoPushHandler(),
    createWebPushHandler(),
    createModerationHandler(),
  ];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    try {
      for (const handler of handlers) if (await handler(req, res, path)) return;
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no stand-in at this path"}');
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    if (!upgradeVoice(req, socket, head, path)) socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        closeVoiceSockets();
        server.close(() => resolve());
        // Stand-ins that hang on purpose (a model, a voice box) hold their connections open.
        server.closeAllConnections();
      }),
  };
}
