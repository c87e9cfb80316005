import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { shardName } from '../../../worker/platform/realtime/settings';
import { SocketShard } from '../../../worker/social/socket-rooms';
import { register } from '../../support/accounts';
import { createApi } from '../../support/worker-api';
import { openClientSocket, waitForFrame } from '../../support/worker-socket-client';

// A shard woken after eviction is a new instance over the same storage and hibernated sockets.
// Each step below runs in such a fresh instance (this toolchain's test pool has no evictDurableObject,
// and local workerd never evicts an object whose socket a Worker still proxies), so whatever a
// handler needs must come from the sockets' attachments and storage, never from memory.

const api = createApi('realtime-wakeup', { REALTIME_SHARDS: '1' });
const shard = () => api.env.SOCKET_SHARD.get(api.env.SOCKET_SHARD.idFromName(shardName(0)));

/** A client socket through the Worker's /socket.io/ upgrade; its frames as they arrive. */
async function clientSocket() {
  const { ws, frames, sid } = await openClientSocket(api);
  return { ws, frames, sid, received: (prefix: string) => waitForFrame(frames, prefix) };
}

/** Runs `step` in a brand-new instance of the shard over its stored state, with the server side of client `sid`. */
function woken<T>(sid: string | null, step: (fresh: SocketShard, ws: WebSocket) => Promise<T>): Promise<T> {
  return runInDurableObject(shard(), async (_live, state) => {
    const fresh = new SocketShard(state, api.env);
    const ws = state.getWebSockets().find((socket) => (socket.deserializeAttachment() as { eid: string }).eid === sid);
    return step(fresh, ws!);
  });
}

describe('a socket shard woken from hibernation', () => {
  it('serves its sockets from attachments and storage alone', { timeout: 20_000 }, async () => {
    const [alice, bob] = await Promise.all([register(api, { name: 'Alice' }), register(api, { name: 'Bob' })]);
    const created = await api.fetch('/api/conversations', {
      method: 'POST',
      headers: { 'x-auth-token': alice.token },
      json: { participantIds: [bob._id] },
    });
    const conversationId = ((await created.json()) as { _id: string })._id;
    const [a, b] = await Promise.all([clientSocket(), clientSocket()]);

    // Namespace connects, each handled by a fresh instance: the rider is kept in the socket's attachment.
    await woken(a.sid, (fresh, ws) =>
      fresh.webSocketMessage(ws, `40/messages,${JSON.stringify({ token: alice.token })}`),
    );
    await woken(b.sid, (fresh, ws) =>
      fresh.webSocketMessage(ws, `40/messages,${JSON.stringify({ token: bob.token })}`),
    );
    expect(await a.received('40/messages,')).toMatch(/^40\/messages,\{"sid":"s[0-9a-f]{32}"\}$/);
    await b.received('40/messages,');

    // An event from Alice, read by yet another instance, reaches Bob through the directory and is acknowledged.
    const typing = JSON.stringify(['typing:start', { conversationId }]);
    await woken(a.sid, (fresh, ws) => fresh.webSocketMessage(ws, `42/messages,7${typing}`));
    expect(await a.received('43/messages,7')).toBe('43/messages,7[{"ok":true}]');
    expect(JSON.parse((await b.received('42/messages,')).slice('42/messages,'.length))).toEqual([
      'typing:start',
      { conversationId, userId: alice._id, expiresInMs: 5000 },
    ]);

    // A REST message finds Bob's socket again.
    await api.fetch(`/api/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { 'x-auth-token': alice.token },
      json: { text: 'still there?' },
    });
    expect(await b.received('42/messages,["message:created"')).toContain('still there?');

    // The typing indicator was stored, so a fresh instance's alarm ends it once due. The live instance's
    // alarm is cancelled first, so only the fresh one can send the stop.
    await runInDurableObject(shard(), (_live, state) => state.storage.deleteAlarm());
    await new Promise((resolve) => setTimeout(resolve, 5100));
    expect(b.frames.filter((frame) => frame.includes('typing:stop'))).toEqual([]);
    await woken(null, (fresh) => fresh.alarm());
    expect(await b.received('42/messages,["typing:stop"')).toBe(
      `42/messages,["typing:stop",${JSON.stringify({ conversationId, userId: alice._id })}]`,
    );

    // A closed socket leaves the directory even when a fresh instance hears the close.
    await woken(b.sid, (fresh, ws) => fresh.webSocketClose(ws, 1000, 'bye'));
    const receivedBefore = b.frames.length;
    await api.fetch(`/api/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { 'x-auth-token': alice.token },
      json: { text: 'gone' },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(b.frames.slice(receivedBefore).filter((frame) => frame.includes('gone'))).toEqual([]);
    a.ws.close();
  });
});
