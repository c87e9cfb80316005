import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { SHARD_HEADER } from '../../../durable-objects/socket-session-id';
import { LIMITS } from '../../../worker/platform/limits';
import { SocketShard } from '../../../worker/social/socket-rooms';
import { register } from '../../support/accounts';
import { AnalyticsEngineStandIn } from '../../support/analytics-engine-stand-in';
import { createApi } from '../../support/worker-api';
import { waitForFrame } from '../../support/worker-socket-client';

// The real-time figures the shards write to METRICS (worker/platform/ops/metrics.ts). A Durable Object reads the
// bindings the runtime gave it, so each step runs in an instance built with this file's env (its stand-in), as
// test/worker/platform/realtime-wakeup.test.ts does; each test takes a shard of its own so counts are exact.

const metrics = new AnalyticsEngineStandIn();
const api = createApi('realtime-metrics', {
  METRICS: metrics,
  REALTIME_SESSIONS_PER_SHARD: '2',
  REALTIME_HANDSHAKES_PER_ADDRESS_PER_MINUTE: '1',
});
const SHARD_INDEX = 5;

const pointsOf = (kind: string, since: number) =>
  metrics.points.slice(since).filter((point) => point.blobs[0] === kind);

/** Runs `step` in an instance of a brand-new shard built with this file's env. */
function onOwnShard<T>(step: (shard: SocketShard, state: DurableObjectState) => Promise<T>): Promise<T> {
  const stub = api.env.SOCKET_SHARD.get(api.env.SOCKET_SHARD.idFromName(`metrics-${crypto.randomUUID()}`));
  return runInDurableObject(stub, (_live, state) => step(new SocketShard(state, api.env), state));
}

/** Opens a WebSocket session on `shard` as the Worker hands one over; the client end's frames as they arrive. */
async function openOn(shard: SocketShard) {
  const res = await shard.fetch(
    new Request('http://shard/socket.io/?EIO=4&transport=websocket', {
      headers: { upgrade: 'websocket', [SHARD_HEADER]: String(SHARD_INDEX) },
    }),
  );
  const client = res.webSocket!;
  const frames: string[] = [];
  client.addEventListener('message', (event) => frames.push(event.data as string));
  client.accept();
  const sid = JSON.parse((await waitForFrame(frames, '0{')).slice(1)).sid as string;
  return { client, frames, sid };
}

const serverSide = (state: DurableObjectState, sid: string) =>
  state.getWebSockets().find((ws) => (ws.deserializeAttachment() as { eid: string }).eid === sid)!;

describe('real-time figures', () => {
  it("writes a shard's session count, with its index, as sessions open and close and at each ping round", async () => {
    const since = metrics.points.length;
    await onOwnShard(async (shard, state) => {
      const first = await openOn(shard);
      const second = await openOn(shard);
      await shard.webSocketClose(serverSide(state, first.sid), 1000, 'bye');
      await shard.alarm();
      second.client.close();
    });
    const sessions = pointsOf('realtime.sessions', since);
    expect(sessions.map((point) => [point.blobs[1], point.doubles[0]])).toEqual([
      [String(SHARD_INDEX), 1],
      [String(SHARD_INDEX), 2],
      [String(SHARD_INDEX), 1],
      [String(SHARD_INDEX), 1],
    ]);
    expect(sessions[0]?.indexes).toEqual([`shard-${SHARD_INDEX}`]);
  });

  it('writes each delivery with its event name, namespace and the sockets it reached', async () => {
    const rider = await register(api);
    const since = metrics.points.length;
    await onOwnShard(async (shard, state) => {
      const socket = await openOn(shard);
      await shard.webSocketMessage(serverSide(state, socket.sid), `40/feed,${JSON.stringify({ token: rider.token })}`);
      await waitForFrame(socket.frames, '40/feed,');
      const removed = { namespace: '/feed', name: 'post:deleted', payload: { postId: 'c0ffee0000000000000000aa' } };
      expect(await shard.broadcast(removed as never)).toBe(1);
      await shard.deliver([rider._id], removed as never);
      await waitForFrame(socket.frames, '42/feed,');
      socket.client.close();
    });
    const deliveries = pointsOf('realtime.deliveries', since);
    expect(deliveries.map((point) => [point.blobs[1], point.blobs[2], point.doubles[0]])).toEqual([
      ['post:deleted', '/feed', 1],
      ['post:deleted', '/feed', 1],
    ]);
    expect(deliveries[0]?.indexes).toEqual(['post:deleted']);
  });

  it('writes a refusal per reason: a full shard, a refused namespace connect, an oversized poll', async () => {
    const since = metrics.points.length;
    await onOwnShard(async (shard, state) => {
      const socket = await openOn(shard);
      await shard.webSocketMessage(
        serverSide(state, socket.sid),
        `40/feed,${JSON.stringify({ token: 'not-a-token' })}`,
      );
      await waitForFrame(socket.frames, '44/feed,');
      const polling = await shard.fetch(new Request('http://shard/socket.io/?EIO=4&transport=polling'));
      const { sid } = JSON.parse((await polling.text()).slice(1)) as { sid: string };
      const full = await shard.fetch(new Request('http://shard/socket.io/?EIO=4&transport=polling'));
      expect(full.status).toBe(503);
      const oversized = await shard.fetch(
        new Request(`http://shard/socket.io/?EIO=4&transport=polling&sid=${sid}`, {
          method: 'POST',
          body: `4${'x'.repeat(1_100_000)}`,
        }),
      );
      expect(oversized.status).toBe(413);
      socket.client.close();
    });
    const refusals = pointsOf('realtime.refusals', since);
    expect(refusals.map((point) => [point.blobs[1], point.doubles[0]])).toEqual([
      ['namespace-refused', 0],
      ['shard-full', 503],
      ['payload-too-large', 413],
    ]);
    expect(refusals[0]?.blobs[2]).toBe('Invalid session token.');
  });

  it('writes a refusal when one connection repeats a namespace, passes its connects, overfills its poll queue or upgrades twice', async () => {
    const rider = await register(api);
    const since = metrics.points.length;
    const connect = `40/feed,${JSON.stringify({ token: rider.token })}`;
    await onOwnShard(async (shard, state) => {
      const twice = await openOn(shard);
      await shard.webSocketMessage(serverSide(state, twice.sid), connect);
      await shard.webSocketMessage(serverSide(state, twice.sid), connect);
      const flood = await openOn(shard);
      for (let i = 0; i <= LIMITS.realtime.connectsPerConnection; i++) {
        await shard.webSocketMessage(serverSide(state, flood.sid), '40/nope,');
      }
    });
    await onOwnShard(async (shard) => {
      const engine = (query: string, init?: RequestInit) =>
        shard.fetch(
          new Request(`http://shard/socket.io/?EIO=4&${query}`, { ...init, headers: { upgrade: 'websocket' } }),
        );
      const open = async () => JSON.parse((await (await engine('transport=polling')).text()).slice(1)).sid as string;
      const unpolled = await open();
      const pings = `3${'\x1e2'.repeat(LIMITS.realtime.pollQueuePackets + 1)}`;
      expect((await engine(`transport=polling&sid=${unpolled}`, { method: 'POST', body: pings })).status).toBe(400);
      const upgrading = await open();
      const probe = (await engine(`transport=websocket&sid=${upgrading}`)).webSocket!;
      probe.accept();
      expect((await engine(`transport=websocket&sid=${upgrading}`)).status).toBe(400);
      probe.close();
    });
    const refusals = pointsOf('realtime.refusals', since);
    expect(refusals.map((point) => [point.blobs[1], point.doubles[0]])).toEqual([
      ['namespace-rejoined', 1002],
      ...Array.from({ length: LIMITS.realtime.connectsPerConnection }, () => ['invalid-namespace', 0]),
      ['connects-rate-limited', 1008],
      ['poll-queue-full', 400],
      ['upgrade-refused', 400],
    ]);
  });

  it("writes a refusal when a client address's handshakes pass the minute's allowance", async () => {
    const since = metrics.points.length;
    const octet = () => Math.floor(Math.random() * 250) + 1;
    const address = { 'cf-connecting-ip': `10.${octet()}.${octet()}.${octet()}` };
    const path = '/socket.io/?EIO=4&transport=polling';
    expect((await api.fetch(path, { headers: address })).status).toBe(200);
    expect((await api.fetch(path, { headers: address })).status).toBe(429);
    const refusals = pointsOf('realtime.refusals', since);
    expect(refusals.map((point) => [point.blobs[1], point.doubles[0]])).toEqual([['handshake-rate-limited', 429]]);
  });
});
