import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { joined, next, type RealtimeStack, record, startRealtimeStack } from '../support/realtime-stack';

// A rider's connections in every namespace mix: /feed and /messages on one connection or on two, on different
// shards, on either transport. Each device gets every event of the namespaces it joined, and ending a session
// closes every connection of it (docs/realtime.md, Topology; docs/sessions.md, What ends what).

let stack: RealtimeStack;
beforeAll(async () => {
  stack = await startRealtimeStack({ build: inject('workerBuild') });
}, 60_000);
afterAll(() => stack?.stop());

type Transport = 'websocket' | 'polling';
const PASSWORD = 'realtime-password';

/** A rider signed in twice with refresh tokens (two sessions), as the apps opt in. */
async function optInRider(name: string) {
  const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}@realtime.test`;
  const headers = { 'x-session-mode': 'refresh' };
  const { status, body } = await stack.api('/users', { body: { name, email, password: PASSWORD }, headers });
  if (status !== 201) throw new Error(JSON.stringify(body));
  const second = await stack.api('/auth', { body: { email, password: PASSWORD }, headers });
  return { id: body.user._id as string, email, token: body.token as string, other: second.body.token as string };
}

/** The shard holding a connection: its Engine.IO id starts with the shard's index (durable-objects/socket-session-id.ts). */
const shardOf = (socket: Socket) => Number.parseInt(socket.io.engine.id.slice(0, 4), 16);

/** A connection to `nsp` on a shard none of `avoid` is on (each new connection goes to a random one of eight). */
async function elsewhere(avoid: Socket[], nsp: string, token: string, transport: Transport = 'websocket') {
  for (let tries = 0; tries < 50; tries++) {
    const socket = await joined(stack.connect(nsp, { auth: { token }, transports: [transport] }));
    if (!avoid.some((other) => shardOf(other) === shardOf(socket))) return socket;
    socket.disconnect();
  }
  throw new Error('no connection landed on another shard in 50 tries');
}

/** /feed and /messages multiplexed on one connection, as socket.io-client does by default. */
async function bothOnOne(token: string) {
  const feed = await joined(stack.connect('/feed', { auth: { token } }));
  const messages = await joined(feed.io.socket('/messages', { auth: { token } }));
  return { feed, messages };
}

/** Resolves once the server closed the connection. */
const disconnected = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', resolve));

async function conversation(token: string, others: string[]) {
  const { status, body } = await stack.api('/conversations', { token, body: { participantIds: others } });
  expect(status).toBe(201);
  return body._id as string;
}

const message = async (token: string, id: string, text: string) =>
  expect((await stack.api(`/conversations/${id}/messages`, { token, body: { text } })).status).toBe(201);

async function postOf(token: string) {
  const { status, body } = await stack.api('/feed', { token, body: { text: 'my line', media: [] } });
  expect(status).toBe(201);
  return body._id as string;
}

const comment = async (token: string, postId: string, text: string) =>
  expect((await stack.api(`/feed/${postId}/comments`, { token, body: { text } })).status).toBe(201);

describe('a rider on several connections', () => {
  it('keeps getting /feed events on a connection that left /messages after a message was sent to it', async () => {
    const rider = await stack.rider('Rider');
    const bob = await stack.rider('Bob');
    const { feed, messages } = await bothOnOne(rider.token);
    const id = await conversation(bob.token, [rider.id]);
    const postId = await postOf(rider.token);
    messages.disconnect();
    // The connection answers /feed after it handled the /messages leave sent before.
    expect(await feed.emitWithAck('ping-after-leave', {})).toEqual(
      expect.objectContaining({ error: expect.any(String) }),
    );
    // Sent while the connection holds /feed alone: the shard holds no /messages socket of the rider.
    await message(bob.token, id, 'only the feed is listening');
    const commented = next(feed, 'comment:created');
    await comment(bob.token, postId, 'nice');
    expect((await commented).comment.text).toBe('nice');
  });

  it('a second device on another shard gets every message, comment, typing and read receipt of its namespace', async () => {
    const rider = await stack.rider('Rider');
    const bob = await stack.rider('Bob');
    const phone = await bothOnOne(rider.token);
    const extension = await elsewhere([phone.feed], '/messages', rider.token);
    const id = await conversation(bob.token, [rider.id]);
    const postId = await postOf(rider.token);

    const first = [next(phone.messages, 'message:created'), next(extension, 'message:created')];
    await message(bob.token, id, 'first');
    for (const event of await Promise.all(first)) expect(event.message.text).toBe('first');
    // A /feed event: the extension's shard holds the rider on /messages only.
    const commented = next(phone.feed, 'comment:created');
    await comment(bob.token, postId, 'clean');
    await commented;

    const second = next(extension, 'message:created');
    await message(bob.token, id, 'second');
    expect((await second).message.text).toBe('second');
    const typing = next(extension, 'typing:start');
    const bobSocket = await joined(stack.connect('/messages', { auth: { token: bob.token } }));
    expect(await bobSocket.emitWithAck('typing:start', { conversationId: id })).toEqual({ ok: true });
    expect((await typing).userId).toBe(bob.id);
    const read = next(extension, 'conversation:read');
    expect((await stack.api(`/conversations/${id}/read`, { token: bob.token, body: {} })).status).toBe(200);
    expect((await read).userId).toBe(bob.id);
  });

  it('two single-namespace connections on different shards both get their events', async () => {
    const rider = await stack.rider('Rider');
    const bob = await stack.rider('Bob');
    const feed = await joined(stack.connect('/feed', { auth: { token: rider.token } }));
    const messages = await elsewhere([feed], '/messages', rider.token);
    const id = await conversation(bob.token, [rider.id]);
    const postId = await postOf(rider.token);
    const comments = record(feed, 'comment:created');
    const messagesSeen = record(messages, 'message:created');
    for (const text of ['one', 'two']) {
      const dm = next(messages, 'message:created');
      await message(bob.token, id, text);
      await dm;
      const commented = next(feed, 'comment:created');
      await comment(bob.token, postId, text);
      await commented;
    }
    expect(messagesSeen.map((event) => event.message.text)).toEqual(['one', 'two']);
    expect(comments.map((event) => event.comment.text)).toEqual(['one', 'two']);
  });
});

describe('ending a session closes every connection of it, whatever its namespaces', () => {
  /**
   * The rider's /feed and /messages on connections of different shards (the first on `transport`), after a direct
   * message and a comment each reached the one connection holding their namespace on its shard.
   */
  async function spreadOut(token: string, transport: Transport) {
    const bob = await stack.rider('Bob');
    const rider = await stack.api('/users/me', { token });
    const feed = await joined(stack.connect('/feed', { auth: { token }, transports: [transport] }));
    const messages = await elsewhere([feed], '/messages', token);
    const id = await conversation(bob.token, [rider.body._id]);
    const postId = await postOf(token);
    const dm = next(messages, 'message:created');
    await message(bob.token, id, 'hello');
    await dm;
    const commented = next(feed, 'comment:created');
    await comment(bob.token, postId, 'nice');
    await commented;
    return [feed, messages];
  }

  for (const transport of ['websocket', 'polling'] as const) {
    it(`signing out everywhere closes them (first connection on ${transport})`, async () => {
      const rider = await optInRider('Rider');
      const sockets = await spreadOut(rider.token, transport);
      const closed = sockets.map(disconnected);
      expect((await stack.api('/auth/logout', { token: rider.token, body: { all: true } })).status).toBe(200);
      await Promise.all(closed);
    });
  }

  it('a password change closes them', async () => {
    const rider = await optInRider('Rider');
    const sockets = await spreadOut(rider.other, 'websocket');
    const closed = sockets.map(disconnected);
    const changed = await stack.api('/users/me/password', {
      method: 'PUT',
      token: rider.token,
      body: { currentPassword: PASSWORD, newPassword: 'a brand new one' },
    });
    expect(changed.status).toBe(200);
    await Promise.all(closed);
  });

  it('revoking the session closes them, a multiplexed connection that left /messages included', async () => {
    const rider = await optInRider('Rider');
    const bob = await stack.rider('Bob');
    const { feed, messages } = await bothOnOne(rider.token);
    const extension = await elsewhere([feed], '/messages', rider.token);
    const id = await conversation(bob.token, [rider.id]);
    messages.disconnect();
    expect(await feed.emitWithAck('ping-after-leave', {})).toEqual(
      expect.objectContaining({ error: expect.any(String) }),
    );
    const dm = next(extension, 'message:created');
    await message(bob.token, id, 'hello');
    await dm;
    const closed = [feed, extension].map(disconnected);
    expect((await stack.api('/auth/logout', { token: rider.token, body: {} })).status).toBe(200);
    await Promise.all(closed);
  });

  it("an email change closes the other sessions' connections and keeps the caller's", async () => {
    const rider = await optInRider('Rider');
    const bob = await stack.rider('Bob');
    const kept = await bothOnOne(rider.token);
    const otherFeed = await joined(stack.connect('/feed', { auth: { token: rider.other } }));
    const otherMessages = await elsewhere([otherFeed], '/messages', rider.other, 'polling');
    const closed = [otherFeed, otherMessages].map(disconnected);
    const changed = await stack.api(`/users/${rider.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${rider.token}` },
      body: { email: `moved-${rider.email}`, currentPassword: PASSWORD },
    });
    expect(changed.status).toBe(200);
    await Promise.all(closed);
    const id = await conversation(bob.token, [rider.id]);
    const dm = next(kept.messages, 'message:created');
    await message(bob.token, id, 'still yours');
    expect((await dm).message.text).toBe('still yours');
    expect(kept.feed.connected).toBe(true);
  });

  it('an account deletion closes every connection of the account', async () => {
    const rider = await optInRider('Rider');
    const phone = await bothOnOne(rider.token);
    const extension = await elsewhere([phone.feed], '/messages', rider.other, 'polling');
    const closed = [phone.feed, extension].map(disconnected);
    const deleted = await stack.api(`/users/${rider.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(deleted.status).toBe(200);
    await Promise.all(closed);
  });
});
