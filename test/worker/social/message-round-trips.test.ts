import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { newSocketId } from '../../../durable-objects/socket-session-id';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { openGatewayStore } from '../../../worker/platform/db/gateway-store';
import { writeInOrder } from '../../../worker/platform/db/in-order';
import type { Store } from '../../../worker/platform/db/store';
import { PresenceReads, sendToRiders } from '../../../worker/platform/realtime/directory';
import { shardName } from '../../../worker/platform/realtime/settings';
import { signSessionToken, type TokenClaims } from '../../../worker/platform/tokens/token';
import { pushNewMessage } from '../../../worker/social/messages/pushes';
import { sendArgs, sendMessage } from '../../../worker/social/messages/send';
import { messageView } from '../../../worker/social/messages/views';
import { decodeClaims, register, type TestAccount } from '../../support/accounts';
import { countingStore } from '../../support/counting-store';
import { captureLogLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// The round trips a direct message costs: every one runs through a gateway object, and a busy chat sends many.

const api = createApi('message-round-trips');

async function conversation(owner: TestAccount, others: TestAccount[]) {
  const res = await api.fetch('/api/conversations', {
    method: 'POST',
    headers: { 'x-auth-token': owner.token },
    json: { participantIds: others.map((other) => other._id) },
  });
  expect(res.status).toBe(201);
  return new ObjectId(((await res.json()) as { _id: string })._id);
}

/** How many requests each rider's directory entry (their presence object) has answered so far. */
function presenceRequests(riders: TestAccount[]): Promise<number[]> {
  const entry = (rider: TestAccount) => api.env.RIDER_PRESENCE.get(api.env.RIDER_PRESENCE.idFromName(rider._id));
  return Promise.all(riders.map(async (rider) => (await entry(rider).readCounters()).requests));
}

async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const connection = openRequestConnection(api.env);
  try {
    return await fn(connection.store);
  } finally {
    await connection.release();
  }
}

/**
 * A gateway store whose calls to the gateway objects are recorded by method (`run`, `runInOrder`, `queries`), each passed on
 * unchanged to the real object: how a test holds a path to its gateway hops.
 */
function countingGatewayStore(): { store: Store; hops: string[] } {
  const hops: string[] = [];
  const namespace = api.env.DB_GATEWAY;
  const counted = {
    idFromName: (name: string) => namespace.idFromName(name),
    get: (id: DurableObjectId, options?: DurableObjectNamespaceGetDurableObjectOptions) => {
      const stub = namespace.get(id, options) as unknown as Record<string, (...args: unknown[]) => unknown>;
      return new Proxy(stub, {
        get: (target, method) =>
          typeof method === 'string' && (method === 'run' || method === 'runInOrder' || method === 'queries')
            ? (...args: unknown[]) => {
                hops.push(method);
                return target[method]!(...args);
              }
            : Reflect.get(target, method),
      });
    },
  };
  return { store: openGatewayStore({ ...api.env, DB_GATEWAY: counted as unknown as typeof namespace }), hops };
}

describe('a direct message', () => {
  it('reaches the gateway in one call: the conversation with its blocks, then the message and the conversation write', async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const id = await conversation(ana, [ben]);
    const { store, hops } = countingGatewayStore();
    const sent = await sendMessage(store, sendArgs(id, new ObjectId(ana._id), 'two hops', false));
    if (typeof sent === 'string') throw new Error(`refused: ${sent}`);
    expect(hops).toEqual(['queries']);
    const stored = await store.conversations.findOne({ _id: id });
    expect(stored?.lastMessageId?.toHexString()).toBe(sent.message._id.toHexString());
    expect(await store.dm_messages.countDocuments({ _id: sent.message._id })).toBe(1);
  });

  it('stored with operations in one gateway call runs none after a failed one, and rejects with its error', async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const id = await conversation(ana, [ben]);
    const taken = new ObjectId();
    const doc = (_id: ObjectId) => ({
      _id,
      conversationId: id,
      userId: new ObjectId(ana._id),
      text: 'x',
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    const { store } = countingGatewayStore();
    await store.dm_messages.insertOne(doc(taken));
    const after = new ObjectId();
    await expect(
      writeInOrder(store, [(s) => s.dm_messages.insertOne(doc(taken)), (s) => s.dm_messages.insertOne(doc(after))]),
    ).rejects.toMatchObject({ code: 11000 });
    expect(await store.dm_messages.countDocuments({ _id: after })).toBe(0);
  });

  it("is stored in three operations, the recipients' push tokens read beside the last two", async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const id = await conversation(ana, [ben]);
    await withStore(async (store) => {
      const counted = countingStore(store);
      const sent = await sendMessage(counted.store, sendArgs(id, new ObjectId(ana._id), 'hi', false));
      expect(sent).not.toBeTypeOf('string');
      // The message, then the conversation's write; the token read beside them, in either order.
      expect(counted.operations.filter((one) => one !== 'pushTokens.find')).toEqual([
        'conversations.aggregate',
        'dm_messages.insertOne',
        'conversations.updateOne',
      ]);
      expect(counted.operations.filter((one) => one === 'pushTokens.find')).toHaveLength(1);
      const stored = await store.conversations.findOne({ _id: id });
      const message = typeof sent === 'string' ? undefined : sent.message;
      expect(stored?.lastMessageId?.toHexString()).toBe(message?._id.toHexString());
      expect(stored?.readMarkers.find((m) => m.userId.toHexString() === ana._id)?.messageId?.toHexString()).toBe(
        message?._id.toHexString(),
      );
    });
  });

  it("moves the sender's read marker to the newest of concurrent sends, never back, and keeps the other's", async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const id = await conversation(ana, [ben]);
    await withStore(async (store) => {
      const sent = await Promise.all(
        Array.from({ length: 6 }, (_, i) => sendMessage(store, sendArgs(id, new ObjectId(ana._id), `m${i}`, false))),
      );
      const newest = sent
        .map((one) => (typeof one === 'string' ? '' : one.message._id.toHexString()))
        .sort()
        .at(-1);
      const stored = await store.conversations.findOne({ _id: id });
      expect(stored?.lastMessageId?.toHexString()).toBe(newest);
      const markers = new Map(stored?.readMarkers.map((m) => [m.userId.toHexString(), m.messageId?.toHexString()]));
      expect(markers.get(ana._id)).toBe(newest);
      expect(markers.get(ben._id)).toBeUndefined();
    });
  });

  it('pushed to a rider without a device reads their live tokens alone: no preferences, blocks or badge', async () => {
    const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api)];
    const id = await conversation(ana, [ben]);
    await withStore(async (store) => {
      const sent = await sendMessage(store, sendArgs(id, new ObjectId(ana._id), 'anyone there?', false));
      if (typeof sent === 'string') throw new Error(`refused: ${sent}`);
      const counted = countingStore(store);
      // Without the tokens the send read, the decision reads them; with them, nothing.
      const pushed = await pushNewMessage(counted.store, api.env, {
        ...sent,
        recipientTokens: undefined,
        senderName: 'Ana',
      });
      expect(pushed.recipients).toEqual([]);
      expect(counted.operations).toEqual(['pushTokens.find']);
      expect(sent.recipientTokens).toEqual([]);
      const known = countingStore(store);
      expect((await pushNewMessage(known.store, api.env, { ...sent, senderName: 'Ana' })).recipients).toEqual([]);
      expect(known.operations).toEqual([]);
    });
  });

  it('pushed to a rider watching the conversation reads nothing from the database', async () => {
    const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api)];
    const id = await conversation(ana, [ben]);
    const presence = api.env.RIDER_PRESENCE.get(api.env.RIDER_PRESENCE.idFromName(ben._id));
    await presence.attach('shard-a', 'socket-1');
    await presence.view('shard-a', 'socket-1', id.toHexString(), 1);
    await withStore(async (store) => {
      const sent = await sendMessage(store, sendArgs(id, new ObjectId(ana._id), 'see it live', false));
      if (typeof sent === 'string') throw new Error(`refused: ${sent}`);
      const counted = countingStore(store);
      const pushed = await pushNewMessage(counted.store, api.env, { ...sent, senderName: 'Ana' });
      expect(pushed.recipients).toEqual([]);
      expect(counted.operations).toEqual([]);
    });
  });

  it("asks each participant's directory entry once for the delivery and the push decision together", async () => {
    const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api)];
    const id = await conversation(ana, [ben]);
    const asked = () => presenceRequests([ana, ben]);
    await withStore(async (store) => {
      const sent = await sendMessage(store, sendArgs(id, new ObjectId(ana._id), 'one read each', false));
      if (typeof sent === 'string') throw new Error(`refused: ${sent}`);
      const before = await asked();
      const presence = new PresenceReads(api.env);
      const view = messageView(sent.message, sent.conversation._id, undefined);
      const event = { conversationId: view.conversationId, message: view };
      await Promise.all([
        sendToRiders(
          api.env,
          [ana._id, ben._id],
          { namespace: '/messages', name: 'message:created', payload: event },
          undefined,
          presence,
        ),
        pushNewMessage(store, api.env, { ...sent, senderName: 'Ana' }, presence),
      ]);
      const after = await asked();
      expect(after.map((count, i) => count - before[i]!)).toEqual([1, 1]);
    });
  });

  it("sent through the route asks each participant's directory entry once, its background work included", async () => {
    const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api)];
    const id = await conversation(ana, [ben]);
    const asked = () => presenceRequests([ana, ben]);
    const before = await asked();
    // api.fetch returns once the request's waitUntil work (the delivery and the push) has finished.
    const res = await api.fetch(`/api/conversations/${id.toHexString()}/messages`, {
      method: 'POST',
      headers: { 'x-auth-token': ana.token },
      json: { text: 'one read each, through the route' },
    });
    expect(res.status).toBe(201);
    const after = await asked();
    expect(after.map((count, i) => count - before[i]!)).toEqual([1, 1]);
  });

  describe('sent through the route', () => {
    /**
     * An opt-in token of the sender's: a legacy token's request may also carry the isolate's batch of legacy-token
     * counts (worker/platform/tokens/legacy-usage.ts), a call that is not the message's.
     */
    const sessionToken = (rider: TestAccount) =>
      signSessionToken(decodeClaims(rider.token) as TokenClaims, api.env.JWT_SECRET!, {
        exp: Math.floor(Date.now() / 1000) + 600,
        sid: new ObjectId().toHexString(),
      });

    /** The POST's request log line: how many gateway calls the request made before it answered. */
    async function postLogged(id: ObjectId, sender: TestAccount, text: string) {
      const token = await sessionToken(sender);
      let status = 0;
      let body: unknown;
      const lines = await captureLogLines(async () => {
        const res = await api.fetch(`/api/conversations/${id.toHexString()}/messages`, {
          method: 'POST',
          headers: { 'x-auth-token': token },
          json: { text },
        });
        status = res.status;
        body = await res.json();
      });
      const line = lines
        .flatMap((one) => (one.startsWith('{') ? [JSON.parse(one) as Record<string, unknown>] : []))
        .find((one) => one.kind === 'request' && one.method === 'POST');
      return { status, body, dbCalls: line?.dbCalls };
    }

    it("reads the caller's account, the conversation with its blocks, and writes, all in one gateway call", async () => {
      const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api)];
      const id = await conversation(ana, [ben]);
      const sent = await postLogged(id, ana, 'one call before the answer');
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ conversationId: id.toHexString(), sender: { name: 'Ana' } });
      expect(sent.dbCalls).toBe(1);
      const stored = await withStore((store) => store.dm_messages.find({ conversationId: id }).toArray());
      expect(stored.map((message) => [message._id.toHexString(), message.text])).toEqual([
        [(sent.body as { _id: string })._id, 'one call before the answer'],
      ]);
      const after = await withStore((store) => store.conversations.findOne({ _id: id }));
      expect(after?.lastMessageId?.toHexString()).toBe((sent.body as { _id: string })._id);
    });

    it("lists a conversation's messages reading the caller's account and the conversation in one call", async () => {
      const [ana, ben, cy] = [await register(api, { name: 'Ana' }), await register(api), await register(api)];
      const id = await conversation(ana, [ben]);
      expect((await postLogged(id, ana, 'one to list')).status).toBe(201);
      /** The GET's status, its items and how many gateway calls it made. */
      const listLogged = async (reader: TestAccount) => {
        const token = await sessionToken(reader);
        let status = 0;
        let items: unknown[] = [];
        const lines = await captureLogLines(async () => {
          const res = await api.fetch(`/api/conversations/${id.toHexString()}/messages`, {
            headers: { 'x-auth-token': token },
          });
          status = res.status;
          items = ((await res.json()) as { items?: unknown[] }).items ?? [];
        });
        const line = lines
          .flatMap((one) => (one.startsWith('{') ? [JSON.parse(one) as Record<string, unknown>] : []))
          .find((one) => one.kind === 'request' && one.method === 'GET');
        return { status, items, dbCalls: line?.dbCalls };
      };
      // The account with the conversation, the page, its senders' names.
      expect(await listLogged(ben)).toMatchObject({ status: 200, items: [{ text: 'one to list' }], dbCalls: 3 });
      expect(await listLogged(cy)).toMatchObject({ status: 404, dbCalls: 1 });
    });

    it('makes no other gateway call after the answer: the push decision has the tokens the send read', async () => {
      const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api)];
      const id = await conversation(ana, [ben]);
      // Every gateway object the Worker spreads its calls over (LIMITS.dbGateway.objects), counted by itself.
      const gatewayRequests = async () => {
        const counts = await Promise.all(
          [0, 1].map(async (i) => {
            const gateway = api.env.DB_GATEWAY.get(api.env.DB_GATEWAY.idFromName(`db-gateway-${i}`));
            return (await gateway.readCounters()).requests;
          }),
        );
        return counts.reduce((sum, n) => sum + n, 0);
      };
      const token = await sessionToken(ana);
      // api.fetch returns once the request's waitUntil work (the delivery and the push decision) has finished.
      const send = (text: string) =>
        api.fetch(`/api/conversations/${id.toHexString()}/messages`, {
          method: 'POST',
          headers: { 'x-auth-token': token },
          json: { text },
        });
      // The first also fills the isolate's word filter terms (a read every 30 s at most).
      expect((await send('the first')).status).toBe(201);
      const before = await gatewayRequests();
      expect((await send('one call in all')).status).toBe(201);
      expect((await gatewayRequests()) - before).toBe(1);
    });

    /** A POST with a valid body, answered with `status` and `text`, and no message stored. */
    async function refusedUnstored(id: ObjectId, headers: Record<string, string>, status: number, text?: string) {
      const res = await api.fetch(`/api/conversations/${id.toHexString()}/messages`, {
        method: 'POST',
        headers,
        json: { text: 'sent with the check' },
      });
      expect(res.status).toBe(status);
      if (text) expect(await res.text()).toContain(text);
      expect(await withStore((store) => store.dm_messages.countDocuments({ conversationId: id }))).toBe(0);
    }

    it('writes nothing for a token its account no longer accepts, nor for a gone account', async () => {
      const [ana, ben] = [await register(api), await register(api)];
      const id = await conversation(ana, [ben]);
      // Signing out everywhere moves the account's token version past the token's.
      await withStore((store) => store.users.updateOne({ _id: new ObjectId(ana._id) }, { $inc: { tokenVersion: 1 } }));
      await refusedUnstored(id, { 'x-auth-token': ana.token }, 400, 'Invalid token.');
      await withStore((store) => store.users.deleteOne({ _id: new ObjectId(ben._id) }));
      await refusedUnstored(id, { 'x-auth-token': ben.token }, 400, 'Invalid token.');
    });

    it('writes nothing for a suspended sender, and answers the suspension', async () => {
      const [ana, ben] = [await register(api), await register(api)];
      const id = await conversation(ana, [ben]);
      await withStore((store) =>
        store.users.updateOne(
          { _id: new ObjectId(ana._id) },
          { $set: { suspension: { reason: 'spam', until: null, at: new Date() } } },
        ),
      );
      await refusedUnstored(id, { 'x-auth-token': ana.token }, 403, 'Account suspended.');
    });

    it('writes nothing for a request its validation refuses after the check: a header too long, a type not JSON', async () => {
      const [ana, ben] = [await register(api), await register(api)];
      const id = await conversation(ana, [ben]);
      await refusedUnstored(id, { 'x-auth-token': ana.token, 'x-socket-id': 'x'.repeat(65) }, 400);
      // The route's media-type gate reads the whole header: a JSON media type with a broken parameter is refused too.
      for (const type of ['text/plain', 'application/json;', 'application/json ; charset=utf-8']) {
        const res = await api.fetch(`/api/conversations/${id.toHexString()}/messages`, {
          method: 'POST',
          headers: { 'x-auth-token': ana.token, 'content-type': type },
          body: JSON.stringify({ text: 'not JSON by its type' }),
        });
        expect(res.status, type).toBe(415);
      }
      expect(await withStore((store) => store.dm_messages.countDocuments({ conversationId: id }))).toBe(0);
    });

    it('still refuses a sender across a block either way, after that one call, and stores nothing', async () => {
      const [ana, ben] = [await register(api), await register(api)];
      const id = await conversation(ana, [ben]);
      const blocked = await api.fetch(`/api/users/me/blocks/${ana._id}`, {
        method: 'PUT',
        headers: { 'x-auth-token': ben.token },
      });
      expect(blocked.ok).toBe(true);
      for (const sender of [ana, ben]) {
        const refused = await postLogged(id, sender, 'across a block');
        expect(refused.status).toBe(403);
        expect(refused.dbCalls).toBe(1);
      }
      expect(await withStore((store) => store.dm_messages.countDocuments({ conversationId: id }))).toBe(0);
    });

    it("answers 404 for a conversation that is not the caller's, and 400 for a bad id before any read of it", async () => {
      const [ana, ben, cy] = [await register(api), await register(api), await register(api)];
      const id = await conversation(ana, [ben]);
      expect((await postLogged(id, cy, 'not mine')).status).toBe(404);
      const res = await api.fetch('/api/conversations/not-an-id/messages', {
        method: 'POST',
        headers: { 'x-auth-token': ana.token },
        json: { text: 'bad id' },
      });
      expect(res.status).toBe(400);
    });

    it('refuses a token whose account is gone before it validates the body, as before', async () => {
      const [ana, ben] = [await register(api), await register(api)];
      const id = await conversation(ana, [ben]);
      await withStore((store) => store.users.deleteOne({ _id: new ObjectId(ana._id) }));
      const res = await api.fetch(`/api/conversations/${id.toHexString()}/messages`, {
        method: 'POST',
        headers: { 'x-auth-token': ana.token },
        json: { text: '' },
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('Invalid token.');
    });
  });

  describe('delivered to the shards', () => {
    const shardId = (index: number) => api.env.SOCKET_SHARD.idFromName(shardName(index)).toString();
    const directory = (rider: TestAccount) => api.env.RIDER_PRESENCE.get(api.env.RIDER_PRESENCE.idFromName(rider._id));
    const event = {
      namespace: '/messages',
      name: 'typing:stop',
      payload: { conversationId: 'c', userId: 'u' },
    } as const;

    /** The shards `sendToRiders` calls, by index, with each rider's connections listed in the directory as given. */
    async function shardsCalled(listed: [TestAccount, number[]][], except?: { sid: string; userId: string }) {
      for (const [rider, shards] of listed)
        for (const [i, index] of shards.entries()) await directory(rider).attach(shardId(index), `engine-${i}`);
      const called: string[] = [];
      const namespace = api.env.SOCKET_SHARD;
      const counted = {
        idFromName: (name: string) => namespace.idFromName(name),
        idFromString: (id: string) => {
          called.push(id);
          return namespace.idFromString(id);
        },
        get: (id: DurableObjectId) => namespace.get(id),
      };
      const env = { ...api.env, SOCKET_SHARD: counted as unknown as typeof namespace };
      await sendToRiders(
        env,
        listed.map(([rider]) => rider._id),
        event,
        except,
      );
      return called.map((id) => [0, 1, 2, 3].find((index) => shardId(index) === id)).sort();
    }

    it("calls no shard for the sender's echo when their only connection there sent it", async () => {
      const [ana, ben] = [await register(api), await register(api)];
      const called = await shardsCalled(
        [
          [ana, [0]],
          [ben, [1]],
        ],
        { sid: newSocketId(0), userId: ana._id },
      );
      expect(called).toEqual([1]);
    });

    it("still calls the sender's shard for their other connection there, and the recipient's that is the same", async () => {
      const [ana, ben] = [await register(api), await register(api)];
      expect(
        await shardsCalled(
          [
            [ana, [0, 0]],
            [ben, [1]],
          ],
          { sid: newSocketId(0), userId: ana._id },
        ),
      ).toEqual([0, 1]);
      const [cy, dee] = [await register(api), await register(api)];
      expect(
        await shardsCalled(
          [
            [cy, [2]],
            [dee, [2]],
          ],
          { sid: newSocketId(2), userId: cy._id },
        ),
      ).toEqual([2]);
    });

    it('calls every shard of the sender for a socket id that names none (the older random form)', async () => {
      const [ana, ben] = [await register(api), await register(api)];
      const older = crypto.randomUUID().replaceAll('-', '');
      expect(
        await shardsCalled(
          [
            [ana, [0]],
            [ben, [1]],
          ],
          { sid: older, userId: ana._id },
        ),
      ).toEqual([0, 1]);
    });
  });
});
