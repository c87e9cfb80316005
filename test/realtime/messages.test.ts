import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { joined, next, pause, type RealtimeStack, record, startRealtimeStack } from '../support/realtime-stack';

let stack: RealtimeStack;
beforeAll(async () => {
  stack = await startRealtimeStack({ build: inject('workerBuild') });
}, 60_000);
afterAll(() => stack?.stop());

async function messenger(name: string) {
  const rider = await stack.rider(name);
  return { ...rider, socket: await joined(stack.connect('/messages', { auth: { token: rider.token } })) };
}

async function conversation(token: string, others: string[]) {
  const { status, body } = await stack.api('/conversations', { token, body: { participantIds: others } });
  expect(status).toBe(201);
  return body._id as string;
}

const send = (token: string, id: string, text: string, headers: Record<string, string> = {}) =>
  stack.api(`/conversations/${id}/messages`, { token, body: { text }, headers });

describe('/messages', () => {
  it("sends a new message to every participant's connections but the one that sent it", async () => {
    const [alice, bob] = await Promise.all([messenger('Alice'), messenger('Bob')]);
    const alicePhone = await joined(stack.connect('/messages', { auth: { token: alice.token } }));
    const id = await conversation(alice.token, [bob.id]);
    const sender = record(alice.socket, 'message:created');
    const toBob = next(bob.socket, 'message:created');
    const toPhone = next(alicePhone, 'message:created');
    const { status, body } = await send(alice.token, id, 'session at 5?', { 'x-socket-id': alice.socket.id! });
    expect(status).toBe(201);
    expect(await toBob).toEqual({ conversationId: id, message: body });
    expect(await toPhone).toEqual({ conversationId: id, message: body });
    expect(body.sender).toEqual({ _id: alice.id, name: 'Alice' });
    await pause(300);
    expect(sender).toEqual([]);
  });

  it("still reaches the recipient when the sender names the recipient's socket as its own", async () => {
    const [alice, bob] = await Promise.all([messenger('Alice'), messenger('Bob')]);
    const id = await conversation(alice.token, [bob.id]);
    const toBob = next(bob.socket, 'message:created');
    const { status, body } = await send(alice.token, id, 'not yours to drop', { 'x-socket-id': bob.socket.id! });
    expect(status).toBe(201);
    expect(await toBob).toEqual({ conversationId: id, message: body });
  });

  it('marks a matched message filtered for the participants who do not follow its sender, and only for them', async () => {
    const [alice, bob, carol] = await Promise.all([messenger('Alice'), messenger('Bob'), messenger('Carol')]);
    expect((await stack.api(`/users/${alice.id}/follow`, { token: carol.token, method: 'PUT' })).status).toBe(200);
    const id = await conversation(alice.token, [bob.id, carol.id]);
    const toBob = next(bob.socket, 'message:created');
    const toCarol = next(carol.socket, 'message:created');
    const { status, body } = await send(alice.token, id, 'f u c k that rail');
    expect(status).toBe(201);
    expect(body).not.toHaveProperty('filtered');
    expect(await toBob).toEqual({ conversationId: id, message: { ...body, filtered: true } });
    expect(await toCarol).toEqual({ conversationId: id, message: body });
  });

  it('never sends an event of a conversation to a rider outside it', async () => {
    const [alice, bob, eve] = await Promise.all([messenger('Alice'), messenger('Bob'), messenger('Eve')]);
    const id = await conversation(alice.token, [bob.id]);
    const overheard = [
      ...(['message:created', 'typing:start', 'typing:stop', 'conversation:read'] as const).map((e) =>
        record(eve.socket, e),
      ),
    ];
    const delivered = next(bob.socket, 'message:created');
    await send(alice.token, id, 'just us');
    await delivered;
    const typing = next(bob.socket, 'typing:start');
    expect(await alice.socket.emitWithAck('typing:start', { conversationId: id })).toEqual({ ok: true });
    await typing;
    const read = next(alice.socket, 'conversation:read');
    await stack.api(`/conversations/${id}/read`, { token: bob.token, body: {} });
    await read;
    // Nor may an outsider type into it.
    expect(await eve.socket.emitWithAck('typing:start', { conversationId: id })).toEqual({
      error: 'Conversation not found.',
    });
    await pause(300);
    expect(overheard.flat()).toEqual([]);
  });

  it('relays typing to the other participants, stops it on request, and ends it by itself when not refreshed', async () => {
    const [alice, bob] = await Promise.all([messenger('Alice'), messenger('Bob')]);
    const id = await conversation(alice.token, [bob.id]);
    const echo = record(alice.socket, 'typing:start');
    const started = next(bob.socket, 'typing:start');
    await alice.socket.emitWithAck('typing:start', { conversationId: id });
    expect(await started).toEqual({ conversationId: id, userId: alice.id, expiresInMs: 5000 });
    const stopped = next(bob.socket, 'typing:stop');
    await alice.socket.emitWithAck('typing:stop', { conversationId: id });
    expect(await stopped).toEqual({ conversationId: id, userId: alice.id });

    await alice.socket.emitWithAck('typing:start', { conversationId: id });
    const at = Date.now();
    const expired = await next(bob.socket, 'typing:stop', 9000);
    expect(expired).toEqual({ conversationId: id, userId: alice.id });
    expect(Date.now() - at).toBeGreaterThanOrEqual(4000);
    expect(echo).toEqual([]);
  });

  it('sends a read receipt to the other participants', async () => {
    const [alice, bob] = await Promise.all([messenger('Alice'), messenger('Bob')]);
    const id = await conversation(alice.token, [bob.id]);
    const { body: message } = await send(alice.token, id, 'read me');
    const receipt = next(alice.socket, 'conversation:read');
    const { body: read } = await stack.api(`/conversations/${id}/read`, {
      token: bob.token,
      body: { messageId: message._id },
    });
    expect(await receipt).toEqual({ conversationId: id, userId: bob.id, messageId: message._id, readAt: read.readAt });
  });

  it('refuses typing between riders who blocked one another', async () => {
    const [alice, bob] = await Promise.all([messenger('Alice'), messenger('Bob')]);
    const id = await conversation(alice.token, [bob.id]);
    await stack.api(`/users/me/blocks/${alice.id}`, { method: 'PUT', token: bob.token });
    const relayed = record(bob.socket, 'typing:start');
    expect(await alice.socket.emitWithAck('typing:start', { conversationId: id })).toEqual({
      error: 'You cannot message this rider.',
    });
    await pause(300);
    expect(relayed).toEqual([]);
  });
});

describe('/messages across a block', () => {
  const block = async (by: { token: string }, id: string) =>
    expect((await stack.api(`/users/me/blocks/${id}`, { method: 'PUT', token: by.token })).status).toBe(200);

  it('stops relaying typing the moment a block is made, either way, though the pair typed just before', async () => {
    const [alice, bob] = await Promise.all([messenger('Alice'), messenger('Bob')]);
    const id = await conversation(alice.token, [bob.id]);
    // Each typed once, so each one's shard remembers the conversation's participants.
    for (const [typist, peer] of [
      [bob, alice],
      [alice, bob],
    ] as const) {
      const relayed = next(peer.socket, 'typing:start');
      expect(await typist.socket.emitWithAck('typing:start', { conversationId: id })).toEqual({ ok: true });
      await relayed;
    }
    const afterBlock = [record(alice.socket, 'typing:start'), record(bob.socket, 'typing:start')];
    await block(alice, bob.id);
    // A refused typing:start is acknowledged without being relayed.
    for (const typist of [bob, alice]) {
      expect(await typist.socket.emitWithAck('typing:start', { conversationId: id })).toEqual({
        error: 'You cannot message this rider.',
      });
    }
    expect(afterBlock.flat()).toEqual([]);
  });

  it('sends no read receipt across a block, either way, in a conversation shared with another rider', async () => {
    const [alice, bob, carol] = await Promise.all([messenger('Alice'), messenger('Bob'), messenger('Carol')]);
    const id = await conversation(carol.token, [alice.id, bob.id]);
    await send(carol.token, id, 'session at 5?');
    await block(alice, bob.id);
    const toAlice = record(alice.socket, 'conversation:read');
    const toBob = record(bob.socket, 'conversation:read');
    const read = (rider: { token: string }) => stack.api(`/conversations/${id}/read`, { token: rider.token, body: {} });
    for (const reader of [bob, alice]) {
      const toCarol = next(carol.socket, 'conversation:read');
      expect((await read(reader)).status).toBe(200);
      expect((await toCarol).userId).toBe(reader.id);
    }
    // Carol's read reaches both, after anything the earlier reads sent them.
    const sentinels = [next(alice.socket, 'conversation:read'), next(bob.socket, 'conversation:read')];
    expect((await read(carol)).status).toBe(200);
    for (const sentinel of await Promise.all(sentinels)) expect(sentinel.userId).toBe(carol.id);
    expect([toAlice, toBob].map((receipts) => receipts.map((receipt) => receipt.userId))).toEqual([
      [carol.id],
      [carol.id],
    ]);
  });
});

describe('ending sessions', () => {
  /** Resolves with the reason once the server closed the socket. */
  const disconnected = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', resolve));
  const optInRider = async (name: string) => {
    const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}@realtime.test`;
    const password = 'realtime-password';
    const headers = { 'x-session-mode': 'refresh' };
    const { body } = await stack.api('/users', { body: { name, email, password }, headers });
    const second = await stack.api('/auth', { body: { email, password }, headers });
    return { id: body.user._id as string, token: body.token as string, other: second.body.token as string };
  };
  const socketsOf = (token: string) =>
    Promise.all(['/feed', '/messages'].map((nsp) => joined(stack.connect(nsp, { auth: { token } }))));

  it("signing out everywhere closes every socket of the account on both namespaces, and no one else's", async () => {
    const alice = await optInRider('Alice');
    const bob = await messenger('Bob');
    const sockets = [...(await socketsOf(alice.token)), ...(await socketsOf(alice.other))];
    const closed = sockets.map(disconnected);
    expect((await stack.api('/auth/logout', { token: alice.token, body: { all: true } })).status).toBe(200);
    // The server ends the connection (1008); a reconnect with an ended token is refused at connect.
    expect(await Promise.all(closed)).toEqual(sockets.map(() => 'transport close'));
    await expect(joined(stack.connect('/messages', { auth: { token: alice.other } }))).rejects.toThrow();
    // Bob's socket on the same shards still hears his conversations.
    const carol = await messenger('Carol');
    const id = await conversation(carol.token, [bob.id]);
    const toBob = next(bob.socket, 'message:created');
    await send(carol.token, id, 'still here?');
    expect((await toBob).message.text).toBe('still here?');
  });

  it("revoking one session closes that session's sockets only", async () => {
    const alice = await optInRider('Alice');
    const [revokedFeed, revokedMessages] = await socketsOf(alice.token);
    const [keptFeed, keptMessages] = await socketsOf(alice.other);
    const closed = [revokedFeed!, revokedMessages!].map(disconnected);
    const kept = record(keptMessages!, 'message:created');
    expect((await stack.api('/auth/logout', { token: alice.token, body: {} })).status).toBe(200);
    await Promise.all(closed);
    const bob = await messenger('Bob');
    const id = await conversation(bob.token, [alice.id]);
    const delivered = next(keptMessages!, 'message:created');
    await send(bob.token, id, 'you there?');
    await delivered;
    expect([keptFeed!.connected, keptMessages!.connected, kept.length]).toEqual([true, true, 1]);
  });

  it('a password change closes every socket joined with a token signed before it', async () => {
    const alice = await messenger('Alice');
    const closed = disconnected(alice.socket);
    const { status, body } = await stack.api('/users/me/password', {
      method: 'PUT',
      token: alice.token,
      body: { currentPassword: 'realtime-password', newPassword: 'a brand new one' },
    });
    expect(status).toBe(200);
    expect(await closed).toBe('transport close');
    expect((await joined(stack.connect('/messages', { auth: { token: body.token } }))).connected).toBe(true);
  });
});
