import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { joined, type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

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
