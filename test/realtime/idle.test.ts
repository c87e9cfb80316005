import { afterAll, beforeAll, expect, it } from 'vitest';
import { joined, next, pause, type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// Short ping timings so a client's own timeout (pingInterval + pingTimeout) passes several times within a test.
const PING_INTERVAL_MS = 1500;
const PING_TIMEOUT_MS = 1000;

let stack: RealtimeStack;
beforeAll(async () => {
  stack = await startRealtimeStack({ pingIntervalMs: PING_INTERVAL_MS, pingTimeoutMs: PING_TIMEOUT_MS });
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
  expect(pings.length).toBeGreaterThanOrEqual(4);
  // Pings keep their cadence: no gap long enough for the client to give up.
  const gaps = pings.slice(1).map((at, i) => at - pings[i]!);
  expect(Math.max(...gaps)).toBeLessThan(PING_INTERVAL_MS + PING_TIMEOUT_MS);
  const author = await stack.rider();
  const created = next(socket, 'post:created');
  await stack.api('/feed', { token: author.token, body: { text: 'still here?', media: [] } });
  expect((await created).post.text).toBe('still here?');
});
