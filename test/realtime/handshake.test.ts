import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { LIMITS } from '../../worker/platform/limits';
import { joined, next, type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

let stack: RealtimeStack;
beforeAll(async () => {
  stack = await startRealtimeStack({ build: inject('workerBuild') });
}, 60_000);
afterAll(() => stack?.stop());

/** A raw WebSocket at /socket.io/, for what socket.io-client never sends; resolves with the open frame. */
async function rawSocket() {
  const ws = new WebSocket(`${stack.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const frames: string[] = [];
  ws.on('message', (data) => frames.push(data.toString()));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  while (!frames.length) await new Promise((resolve) => setTimeout(resolve, 10));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return { ws, frames, closed };
}

describe('the Socket.IO handshake at /socket.io/', () => {
  it('joins /feed and /messages over one connection with the token in auth', async () => {
    const { token } = await stack.rider();
    const feed = io(`${stack.url}/feed`, { transports: ['websocket'], auth: { token }, reconnection: false });
    const messages = io(`${stack.url}/messages`, { transports: ['websocket'], auth: { token }, reconnection: false });
    await Promise.all([joined(feed), joined(messages)]);
    expect(feed.io).toBe(messages.io);
    expect(feed.io.engine.id).toMatch(/^[0-9a-f]{32}$/);
    expect(feed.id).not.toBe(messages.id);
    feed.disconnect();
    messages.disconnect();
  });

  it('accepts the token as the query parameter `token`', async () => {
    const { token } = await stack.rider();
    const socket = await joined(stack.connect('/messages', { query: { token } }));
    expect(socket.connected).toBe(true);
  });

  it('refuses a namespace without a token, or with a bad one, as a connect_error', async () => {
    const missing = joined(stack.connect('/feed'));
    await expect(missing).rejects.toThrow('Authentication required: send the session token as auth.token.');
    const bad = joined(stack.connect('/messages', { auth: { token: 'not.a.token' } }));
    await expect(bad).rejects.toThrow('Invalid session token.');
  });

  it('refuses an unknown namespace, the main one included', async () => {
    const { token } = await stack.rider();
    await expect(joined(stack.connect('/chat', { auth: { token } }))).rejects.toThrow('Invalid namespace');
    await expect(joined(stack.connect('/', { auth: { token } }))).rejects.toThrow('Invalid namespace');
  });

  it('refuses other transports and protocol versions with a 400 naming the parameter', async () => {
    const flash = await fetch(`${stack.url}/socket.io/?EIO=4&transport=flashsocket`);
    expect(flash.status).toBe(400);
    expect(await flash.json()).toMatchObject({ details: [{ field: 'transport' }] });
    const v3 = await fetch(`${stack.url}/socket.io/?EIO=3&transport=websocket`);
    expect(v3.status).toBe(400);
    expect(await v3.json()).toMatchObject({ details: [{ field: 'EIO' }] });
  });

  it('accepts no permessage-deflate offer: each frame is sent as encoded, not deflated per socket', async () => {
    // ws offers permessage-deflate by default, as browsers and socket.io-client on Node do.
    const { ws } = await rawSocket();
    expect(ws.extensions).toBe('');
    ws.close();
  });

  it('opens with the session id, ping timings and payload limit', async () => {
    const { ws, frames } = await rawSocket();
    expect(frames[0]![0]).toBe('0');
    expect(JSON.parse(frames[0]!.slice(1))).toEqual({
      sid: expect.stringMatching(/^[0-9a-f]{32}$/),
      upgrades: [],
      pingInterval: 25_000,
      pingTimeout: 20_000,
      maxPayload: 100_000,
    });
    ws.close();
  });

  it('closes a socket that sends a malformed frame, and the others keep working', async () => {
    const { token } = await stack.rider();
    const bystander = await joined(stack.connect('/messages', { auth: { token } }));
    for (const garbage of ['9', '4zz', '42/messages,["typing:start"', `4${'0/feed,{'.repeat(3)}`]) {
      const { ws, closed } = await rawSocket();
      ws.send(garbage);
      expect(await closed, garbage).toBe(1002);
    }
    const ack = await bystander.emitWithAck('typing:start', { conversationId: '0'.repeat(24) });
    expect(ack).toEqual({ error: 'Conversation not found.' });
  });

  it('answers a client ping with a pong, and an oversized frame with a close', async () => {
    const { ws, frames, closed } = await rawSocket();
    ws.send('2');
    while (frames.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(frames[1]).toBe('3');
    ws.send(`4${'x'.repeat(100_001)}`);
    expect(await closed).toBe(1009);
  });

  it('acknowledges an unknown or invalid event with an error', async () => {
    const { token } = await stack.rider();
    const socket = await joined(stack.connect('/messages', { auth: { token } }));
    expect(await socket.emitWithAck('message:send', { text: 'hi' })).toEqual({
      error: 'Unknown event on /messages: message:send',
    });
    expect(await socket.emitWithAck('typing:start', { conversationId: 'nope' })).toEqual({
      error: 'typing:start: conversationId a 24-hex conversation id',
    });
  });
});

describe('namespace connects on one connection', () => {
  const connectPacket = (nsp: string, token: string) => `40${nsp},${JSON.stringify({ token })}`;
  /** Resolves with the frame once one starting with `prefix` has arrived, counting from `from`. */
  const frameStarting = async (frames: string[], prefix: string, from = 0) => {
    for (;;) {
      const found = frames.slice(from).find((frame) => frame.startsWith(prefix));
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('closes a connection that connects a namespace it already joined, as Socket.IO does', async () => {
    const { token } = await stack.rider();
    const { ws, frames, closed } = await rawSocket();
    ws.send(connectPacket('/feed', token));
    await frameStarting(frames, '40/feed,');
    ws.send(connectPacket('/feed', token));
    expect(await closed).toBe(1002);
    expect(frames.filter((frame) => frame.startsWith('40/feed,'))).toHaveLength(1);
  });

  it('ends a flood of connects on one connection with one join at most, and the rider beside it is still served', async () => {
    const [quiet, author, flooder] = await Promise.all([stack.rider(), stack.rider(), stack.rider()]);
    const feed = await joined(stack.connect('/feed', { auth: { token: quiet.token } }));
    const { ws, frames, closed } = await rawSocket();
    const packet = connectPacket('/feed', flooder.token);
    for (let i = 0; i < 3000; i++) ws.send(packet);
    // Closed at the first repeat after the join (1002), or past the bound if all came while it was answered (1008).
    expect([1002, 1008]).toContain(await closed);
    expect(frames.filter((frame) => frame.startsWith('40/feed,')).length).toBeLessThanOrEqual(1);
    const created = next(feed, 'post:created');
    const { status, body } = await stack.api('/feed', { token: author.token, body: { text: 'still here', media: [] } });
    expect(status).toBe(201);
    expect((await created).post._id).toBe(body._id);
  });

  it('lets a client leave a namespace and join it again on the same connection', async () => {
    const { token } = await stack.rider();
    const feed = await joined(stack.connect('/feed', { auth: { token } }));
    // On an open connection the manager connects a new namespace's socket by itself.
    const messages = await joined(feed.io.socket('/messages', { auth: { token } }));
    messages.disconnect();
    await joined(messages.connect());
    expect(messages.connected && feed.connected).toBe(true);
    feed.disconnect();
    messages.disconnect();
  });

  it("answers a client's second connect() sent before its first was answered once, keeping the connection", async () => {
    const { token } = await stack.rider();
    const feed = await joined(stack.connect('/feed', { auth: { token } }));
    // The socket sends its connect as it is made on an open connection, and again for the app's own connect().
    const messages = feed.io.socket('/messages', { auth: { token } }).connect();
    let connects = 0;
    messages.on('connect', () => connects++);
    await joined(messages);
    expect(await messages.emitWithAck('typing:start', { conversationId: '0'.repeat(24) })).toEqual({
      error: 'Conversation not found.',
    });
    expect(connects).toBe(1);
    expect(feed.connected && messages.connected).toBe(true);
    feed.disconnect();
    messages.disconnect();
  });

  it('closes a connection past its namespace connects a minute, refused ones counted (1008)', async () => {
    const { token } = await stack.rider();
    const { ws, frames, closed } = await rawSocket();
    const allowed = LIMITS.realtime.connectsPerConnection;
    for (let i = 0; i < allowed - 1; i++) ws.send('40/nope,');
    ws.send(connectPacket('/feed', token));
    await frameStarting(frames, '40/feed,');
    expect(frames.filter((frame) => frame.startsWith('44/nope,'))).toHaveLength(allowed - 1);
    ws.send(connectPacket('/messages', token));
    expect(await closed).toBe(1008);
    expect(frames.some((frame) => frame.startsWith('40/messages,'))).toBe(false);
  });
});

describe('bounds on new Engine.IO sessions', () => {
  // Small bounds, so a few requests reach each: one shard, so the per-shard cap is the stack's too.
  const PER_ADDRESS = 3;
  const PER_SHARD = 4;
  const CONNECT_TIMEOUT_MS = 1500;
  let bounded: RealtimeStack;
  beforeAll(async () => {
    bounded = await startRealtimeStack({
      build: inject('workerBuild'),
      vars: {
        REALTIME_SHARDS: '1',
        REALTIME_HANDSHAKES_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS),
        REALTIME_SESSIONS_PER_SHARD: String(PER_SHARD),
        REALTIME_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      },
    });
  }, 60_000);
  afterAll(() => bounded?.stop());

  let addresses = 0;
  /** A client address of its own for each caller, as Cloudflare reports it. */
  const newAddress = () => `198.51.100.${++addresses}`;
  const handshake = (address: string) =>
    fetch(`${bounded.url}/socket.io/?EIO=4&transport=polling`, { headers: { 'cf-connecting-ip': address } });
  /** The status a WebSocket upgrade without a session is answered with (101 when it opens). */
  const upgradeStatus = (address: string) =>
    new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${bounded.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, {
        headers: { 'cf-connecting-ip': address },
      });
      ws.once('open', () => {
        ws.close();
        resolve(101);
      });
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once('error', reject);
    });
  const sidOf = async (res: Response) => JSON.parse((await res.text()).slice(1)).sid as string;
  const poll = (sid: string) => fetch(`${bounded.url}/socket.io/?EIO=4&transport=polling&sid=${sid}`);
  /** Sessions a test left open: each ends by the connect timeout, which the shard cap's test awaits. */
  const leftOpen: string[] = [];
  /** Resolves once the session is closed: its held polls end with the close packet, then 400. */
  const closed = async (sid: string) => {
    for (;;) {
      const res = await poll(sid);
      if (res.status === 400 || (await res.text()) === '1') return;
    }
  };
  const rider = (token: string, opts: { transports?: string[] } = {}) =>
    bounded.connect('/feed', { auth: { token }, extraHeaders: { 'cf-connecting-ip': newAddress() }, ...opts });

  it('refuses an address its next handshake past the per-minute allowance with 429 and Retry-After, on either transport', async () => {
    const address = newAddress();
    const opened: string[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) {
      const res = await handshake(address);
      expect(res.status).toBe(200);
      opened.push(await sidOf(res));
    }
    const refused = await handshake(address);
    expect(refused.status).toBe(429);
    // A session already open goes on: polled at once, as an unjoined session ends by the connect timeout anyway.
    expect((await poll(opened.at(-1)!)).status).toBe(200);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining('new real-time connections') });
    // A WebSocket opened without a session is a new session too, counted the same.
    expect(await upgradeStatus(address)).toBe(429);
    // Another address is not held back by it.
    const other = await handshake(newAddress());
    expect(other.status).toBe(200);
    leftOpen.push(...opened, await sidOf(other));
  });

  it('closes a session that joined no namespace within the connect timeout, long before a ping would', async () => {
    const { token } = await bounded.rider();
    const joinedRider = await joined(rider(token));
    const sid = await sidOf(await handshake(newAddress()));
    // The held poll hears the close packet, not a ping first; the session is gone for the next request.
    expect(await (await poll(sid)).text()).toBe('1');
    expect((await poll(sid)).status).toBe(400);
    // A session that joined, older than the timeout by now, stays.
    expect(joinedRider.connected).toBe(true);
    joinedRider.disconnect();
  });

  it('answers a handshake past the sessions a shard holds with 503 and Retry-After, and socket.io-client sees it', async () => {
    await Promise.all(leftOpen.map(closed));
    const { token } = await bounded.rider();
    const riders = [];
    for (let i = 0; i < PER_SHARD; i++) riders.push(await joined(rider(token)));
    const full = await handshake(newAddress());
    expect(full.status).toBe(503);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await full.json()).toMatchObject({ error: expect.stringContaining('full') });
    await expect(joined(rider(token, { transports: ['polling'] }))).rejects.toMatchObject({
      message: 'xhr poll error',
      description: 503,
    });
    // One leaving makes room, once its close has reached the shard.
    riders[0]!.disconnect();
    let status = 503;
    for (let tries = 0; status === 503 && tries < 100; tries++) {
      const res = await handshake(newAddress());
      status = res.status;
      if (status === 200) leftOpen.push(await sidOf(res));
    }
    expect(status).toBe(200);
  });
});
