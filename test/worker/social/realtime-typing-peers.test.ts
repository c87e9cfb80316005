import { runInDurableObject } from 'cloudflare:test';
import { ObjectId } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { shardName } from '../../../worker/platform/realtime/settings';
import { SocketShard } from '../../../worker/social/socket-rooms';
import { register, type TestAccount } from '../../support/accounts';
import { LONG_TEST_MS } from '../../support/time-limits';
import { createApi } from '../../support/worker-api';
import { openClientSocket, waitForFrame } from '../../support/worker-socket-client';

// Whom a typing frame reaches (worker/social/socket-rooms.ts `peersOf`), and what the shard remembers of it:
// the frame names its conversation, so a client sending many ids must not grow the shard's memory.
// Frames go to one shard instance built with this file's env (its database), kept across the steps so its
// cache is the one under test; the instance the runtime built reads the default database.

const api = createApi('realtime-typing-peers', { REALTIME_SHARDS: '1' });
const shard = () => api.env.SOCKET_SHARD.get(api.env.SOCKET_SHARD.idFromName(shardName(0)));

async function conversation(owner: TestAccount, other: TestAccount): Promise<string> {
  const res = await api.fetch('/api/conversations', {
    method: 'POST',
    headers: { 'x-auth-token': owner.token },
    json: { participantIds: [other._id] },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

let instance: SocketShard | null = null;

/** A client socket joined to /messages as `rider`; its frames go to the one instance under test. */
async function joined(rider: TestAccount) {
  const { ws, frames, sid } = await openClientSocket(api);
  /** Hands frames to the instance under test, all at once, and waits until it has handled them. */
  const send = (...sent: string[]) =>
    runInDurableObject(shard(), async (live, state) => {
      instance ??= new SocketShard(state, api.env);
      const server = state
        .getWebSockets()
        .find((socket) => (socket.deserializeAttachment() as { eid: string }).eid === sid)!;
      await Promise.all(sent.map((frame) => instance!.webSocketMessage(server, frame)));
      // The runtime's own instance delivers to the sockets, from an index of joined sockets it drops on its own
      // joins only. These joins went through the instance under test, so it drops it here: a delivery or ping that
      // reached the shard between two joins (other files share the shard) would leave it an index without the later.
      (live as unknown as { joinedIndex: unknown }).joinedIndex = null;
    });
  await send(`40/messages,${JSON.stringify({ token: rider.token })}`);
  await waitForFrame(frames, '40/messages,');
  return {
    ws,
    frames,
    send,
    typing: (conversationId: string, ack: number) =>
      `42/messages,${ack}${JSON.stringify(['typing:start', { conversationId }])}`,
    ack: (ack: number) => waitForFrame(frames, `43/messages,${ack}[`),
  };
}

describe('typing frames in a shard', () => {
  it('reach the other participant, are refused across a block, and many conversation ids keep the cache bounded', {
    timeout: LONG_TEST_MS,
  }, async () => {
    const [ana, ben, cal] = await Promise.all([register(api), register(api), register(api)]);
    const withBen = await conversation(ana, ben);
    const withCal = await conversation(ana, cal);
    const blocked = await api.fetch(`/api/users/me/blocks/${ana._id}`, {
      method: 'PUT',
      headers: { 'x-auth-token': cal.token },
    });
    expect(blocked.ok).toBe(true);
    const [a, b, c] = [await joined(ana), await joined(ben), await joined(cal)];

    await a.send(a.typing(withBen, 1), a.typing(withCal, 2));
    expect(await a.ack(1)).toBe('43/messages,1[{"ok":true}]');
    expect(await a.ack(2)).toBe('43/messages,2[{"error":"You cannot message this rider."}]');
    expect(JSON.parse((await waitForFrame(b.frames, '42/messages,')).slice('42/messages,'.length))).toEqual([
      'typing:start',
      { conversationId: withBen, userId: ana._id, expiresInMs: LIMITS.realtime.typingTtlMs },
    ]);

    // More distinct conversation ids than the cache holds, in batches: each is refused, and the cache stays bounded.
    const bound = LIMITS.realtime.peerCacheEntries;
    const flood = Array.from({ length: bound + 100 }, (_, i) => a.typing(new ObjectId().toHexString(), 100 + i));
    for (let i = 0; i < flood.length; i += 50) await a.send(...flood.slice(i, i + 50));
    expect(await a.ack(100 + flood.length - 1)).toBe(
      `43/messages,${100 + flood.length - 1}[{"error":"Conversation not found."}]`,
    );
    // The cache is the shard's private state; its size is what a flood would grow.
    expect((instance as unknown as { peerCache: { size: number } }).peerCache.size).toBe(bound);

    // The evicted pairs are read again, with the same answers.
    const typingToBen = () => b.frames.filter((frame) => frame.startsWith('42/messages,["typing:start"')).length;
    await a.send(a.typing(withBen, 3), a.typing(withCal, 4));
    expect(await a.ack(3)).toBe('43/messages,3[{"ok":true}]');
    expect(await a.ack(4)).toBe('43/messages,4[{"error":"You cannot message this rider."}]');
    await vi.waitFor(() => expect(typingToBen()).toBe(2), { timeout: LONG_TEST_MS / 2 });
    expect(c.frames.filter((frame) => frame.includes('typing:'))).toEqual([]);
    for (const socket of [a, b, c]) socket.ws.close();
  });
});
