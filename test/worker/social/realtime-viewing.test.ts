import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../durable-objects/realtime-events';
import { shardName } from '../../../worker/platform/realtime/settings';
import { SocketShard } from '../../../worker/social/socket-rooms';
import { register } from '../../support/accounts';
import { createApi } from '../../support/worker-api';
import { openClientSocket, waitForFrame } from '../../support/worker-socket-client';

// What a rider's sockets show, as the message pushes ask it (worker/platform/realtime/directory.ts `ridersViewing`).
// Frames are handed to a shard instance built with this file's env (its database), as in
// test/worker/platform/realtime-wakeup.test.ts: the shard the runtime built reads the default one.

const api = createApi('realtime-viewing', { REALTIME_SHARDS: '1' });
const shard = () => api.env.SOCKET_SHARD.get(api.env.SOCKET_SHARD.idFromName(shardName(0)));
const presence = (userId: string) => api.env.RIDER_PRESENCE.get(api.env.RIDER_PRESENCE.idFromName(userId));
const conversationId = 'c0ffee0000000000000000aa';
const otherConversation = 'c0ffee0000000000000000bb';

/** A client socket through the Worker's /socket.io/ upgrade; `send` hands a frame to the shard with this file's env. */
async function clientSocket() {
  const { ws, frames, sid } = await openClientSocket(api);
  const onServer = (step: (shard: SocketShard, server: WebSocket) => Promise<void>) =>
    runInDurableObject(shard(), async (_live, state) => {
      const server = state
        .getWebSockets()
        .find((socket) => (socket.deserializeAttachment() as { eid: string }).eid === sid);
      await step(new SocketShard(state, api.env), server!);
    });
  return {
    received: (prefix: string) => waitForFrame(frames, prefix),
    send: (frame: string) => onServer((fresh, server) => fresh.webSocketMessage(server, frame)),
    close: () => onServer((fresh, server) => fresh.webSocketClose(server, 1000, 'bye')),
    /** A delivery to the shard, answered by an instance built from the attachments: the riders it holds no socket of. */
    deliver: (userIds: string[], event: ServerEvent) =>
      runInDurableObject(shard(), (_live, state) => new SocketShard(state, api.env).deliver(userIds, event)),
    /** Joins a namespace as the rider. */
    join: async (nsp: string, token: string) => {
      await onServer((fresh, server) => fresh.webSocketMessage(server, `40${nsp},${JSON.stringify({ token })}`));
      await waitForFrame(frames, `40${nsp},`);
    },
    /** Emits conversation:viewing and answers its acknowledgement. */
    view: async (id: string | null, ack: number) => {
      await onServer((fresh, server) =>
        fresh.webSocketMessage(
          server,
          `42/messages,${ack}${JSON.stringify(['conversation:viewing', { conversationId: id }])}`,
        ),
      );
      return waitForFrame(frames, `43/messages,${ack}`);
    },
    ws,
  };
}

describe('viewing a conversation', () => {
  it('is kept for a socket that says so, replaced by the next one, and ends with null', async () => {
    const rider = await register(api);
    const socket = await clientSocket();
    await socket.join('/messages', rider.token);
    expect(await socket.view(conversationId, 1)).toBe('43/messages,1[{"ok":true}]');
    expect((await presence(rider._id).entry()).viewing).toEqual([conversationId]);

    await socket.view(otherConversation, 2);
    expect((await presence(rider._id).entry()).viewing).toEqual([otherConversation]);

    await socket.view(null, 3);
    expect((await presence(rider._id).entry()).viewing).toEqual([]);
    socket.ws.close();
  });

  it('refuses a payload that is neither a conversation id nor null', async () => {
    const rider = await register(api);
    const socket = await clientSocket();
    await socket.join('/messages', rider.token);
    await socket.send(`42/messages,1${JSON.stringify(['conversation:viewing', { conversationId: 'chat-1' }])}`);
    expect(await socket.received('43/messages,1')).toBe(
      '43/messages,1[{"error":"conversation:viewing: conversationId a 24-hex conversation id"}]',
    );
    socket.ws.close();
  });

  it('stops when the socket leaves /messages or closes', async () => {
    const rider = await register(api);
    const socket = await clientSocket();
    await socket.join('/feed', rider.token);
    await socket.join('/messages', rider.token);
    await socket.view(conversationId, 1);
    // Leaving /messages while /feed stays: the socket is still the rider's, but shows no chat.
    await socket.send('41/messages,');
    const left = await presence(rider._id).entry();
    expect(left.viewing).toEqual([]);
    expect(left.shards).toHaveLength(1);

    await socket.join('/messages', rider.token);
    await socket.view(conversationId, 2);
    expect((await presence(rider._id).entry()).viewing).toEqual([conversationId]);
    await socket.close();
    expect(await presence(rider._id).entry()).toMatchObject({ shards: [], viewing: [] });
  });
});

describe('a delivery to a shard', () => {
  it('finds a rider holding only the other namespace here present, so the directory keeps their socket', async () => {
    const rider = await register(api);
    const socket = await clientSocket();
    await socket.join('/feed', rider.token);
    await socket.join('/messages', rider.token);
    await socket.send('41/messages,');
    const read: ServerEvent = {
      namespace: '/messages',
      name: 'conversation:read',
      payload: { conversationId, userId: rider._id, messageId: null, readAt: new Date().toISOString() },
    };
    expect(await socket.deliver([rider._id], read)).toEqual([]);
    await socket.close();
    expect(await socket.deliver([rider._id], read)).toEqual([rider._id]);
  });
});

describe("a rider's directory entry", () => {
  it('keeps the latest of two crossed reports and drops one for a socket already gone', async () => {
    const entry = presence(crypto.randomUUID());
    await entry.attach('shard-a', 'socket-1');
    await entry.view('shard-a', 'socket-1', otherConversation, 2);
    await entry.view('shard-a', 'socket-1', conversationId, 1);
    expect(await entry.entry()).toMatchObject({ shards: ['shard-a'], viewing: [otherConversation] });
    await entry.detach('shard-a', 'socket-1');
    await entry.view('shard-a', 'socket-1', conversationId, 3);
    expect(await entry.entry()).toMatchObject({ shards: [], viewing: [] });
  });

  it('forgets what the sockets of a restarted shard showed', async () => {
    const entry = presence(crypto.randomUUID());
    await entry.attach('shard-a', 'socket-1');
    await entry.attach('shard-b', 'socket-2');
    await entry.view('shard-a', 'socket-1', conversationId, 1);
    await entry.view('shard-b', 'socket-2', otherConversation, 1);
    await entry.detachShard('shard-a', Date.now() + 1);
    expect(await entry.entry()).toMatchObject({ shards: ['shard-b'], viewing: [otherConversation] });
  });

  it('answers every change made since it was last read: attach, view, detach and a forgotten shard', async () => {
    const entry = presence(crypto.randomUUID());
    expect(await entry.entry()).toMatchObject({ shards: [], viewing: [] });
    await entry.attach('shard-a', 'socket-1');
    expect(await entry.entry()).toMatchObject({ shards: ['shard-a'], viewing: [] });
    await entry.view('shard-a', 'socket-1', conversationId, 1);
    expect(await entry.entry()).toMatchObject({ shards: ['shard-a'], viewing: [conversationId] });
    await entry.attach('shard-b', 'socket-2');
    await entry.attach('shard-b', 'socket-3');
    expect((await entry.entry()).sockets).toEqual({ 'shard-a': 1, 'shard-b': 2 });
    await entry.detach('shard-b', 'socket-3');
    await entry.detach('shard-b', 'socket-2');
    expect(await entry.entry()).toMatchObject({ shards: ['shard-a'], viewing: [conversationId] });
    await entry.detachShard('shard-a', Date.now() + 1);
    expect(await entry.entry()).toMatchObject({ shards: [], viewing: [] });
  });
});
