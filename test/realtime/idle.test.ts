import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { joined, next, pause, type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// Short ping timings so a client's own timeout (pingInterval + pingTimeout) passes several times within a test.
const PING_INTERVAL_MS = 1500;
const PING_TIMEOUT_MS = 1000;

let stack: RealtimeStack;
beforeAll(async () => {
  stack = await startRealtimeStack({
    build: inject('workerBuild'),
    pingIntervalMs: PING_INTERVAL_MS,
    pingTimeoutMs: PING_TIMEOUT_MS,
  });
}, 60_000);
afterAll(() => stack?.stop());

it('keeps an idle client connected past pingInterval + pingTimeout, pinging it from the shard alarm', async () => {
  const reader = await stack.rider();
  const socket = await joined(stack.connect('/feed', { auth: { token: reader.token } }));
  const pings: number[] = [];
  socket.io.on('ping', () => pings.push(Date.now()));
  const drops: string[] = [];
  socket.on('disconnect', (reason) => drops.push(reason));
  await pause(3 * (PING_INTERVAL_MS + PING_TIMEOUT_MS));
  expect(drops).toEqual([]);
  expect(socket.connected).toBe(true);
  // Pinged all along: the client gives up after pingInterval + pingTimeout without one, and it never did.
  expect(pings.length).toBeGreaterThanOrEqual(4);
  const author = await stack.rider();
  const created = next(socket, 'post:created');
  await stack.api('/feed', { token: author.token, body: { text: 'still here?', media: [] } });
  expect((await created).post.text).toBe('still here?');
});

it('closes a client that stops answering pings once pingInterval + pingTimeout pass after its last pong', async () => {
  const reader = await stack.rider();
  const socket = await joined(stack.connect('/feed', { auth: { token: reader.token } }));
  // engine.io-client's own sender (not public API: the test needs a client that stops answering).
  const engine = socket.io.engine as unknown as { _sendPacket: (type: string, ...rest: unknown[]) => void };
  // The client answers the ping it just got (engine.io-client sends the pong before telling listeners), then falls silent.
  const lastPongAt = await new Promise<number>((resolve) => socket.io.once('ping', () => resolve(Date.now())));
  const send = engine._sendPacket.bind(engine);
  engine._sendPacket = (type, ...rest) => {
    if (type !== 'pong') send(type, ...rest);
  };
  let unanswered = 0;
  socket.io.on('ping', () => unanswered++);
  const closedAt = await new Promise<number>((resolve) => socket.once('disconnect', () => resolve(Date.now())));
  // Closed on the first ping left unanswered, not a later one; never sooner than the shard's pingTimeout after it.
  expect(unanswered).toBe(1);
  expect(closedAt - lastPongAt).toBeGreaterThanOrEqual(PING_INTERVAL_MS + PING_TIMEOUT_MS - 300);
});
