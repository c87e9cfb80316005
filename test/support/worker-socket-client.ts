import { expect } from 'vitest';
import type { Api } from './worker-api';

/** The first frame received so far that starts with `prefix`, waiting up to 4 s for it. */
export async function waitForFrame(frames: string[], prefix: string): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const found = frames.find((frame) => frame.startsWith(prefix));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no frame starting ${prefix}; got ${JSON.stringify(frames.slice(-5))}`);
}

/** A client WebSocket through the Worker's /socket.io/ upgrade: its frames as they arrive, and its Engine.IO session id. */
export async function openClientSocket(api: Api): Promise<{ ws: WebSocket; frames: string[]; sid: string }> {
  const res = await api.fetch('/socket.io/?EIO=4&transport=websocket', { headers: { upgrade: 'websocket' } });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  const frames: string[] = [];
  ws.addEventListener('message', (event) => frames.push(event.data as string));
  ws.accept();
  const sid = JSON.parse((await waitForFrame(frames, '0{')).slice(1)).sid as string;
  return { ws, frames, sid };
}
