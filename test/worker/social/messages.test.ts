import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('messages');

const openId = async (caller: TestAccount, others: TestAccount[]) =>
  (
    await (
      await api.fetch('/api/conversations', {
        method: 'POST',
        headers: { 'x-auth-token': caller.token },
        json: { participantIds: others.map((other) => other._id) },
      })
    ).json<any>()
  )._id as string;
const send = (caller: TestAccount, conversationId: string, json: unknown) =>
  api.fetch(`/api/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'x-auth-token': caller.token },
    json,
  });
const read = (caller: TestAccount, conversationId: string, query = '') =>
  api.fetch(`/api/conversations/${conversationId}/messages${query}`, { headers: { 'x-auth-token': caller.token } });
const texts = async (caller: TestAccount, conversationId: string, query = '') => {
  const body = await (await read(caller, conversationId, query)).json<any>();
  return { texts: body.items.map((m: any) => m.text), ids: body.items.map((m: any) => m._id), next: body.nextCursor };
};

/** A conversation of two riders holding messages m1..m5, sent in order. */
async function chat() {
  const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api)];
  const id = await openId(ana, [ben]);
  const ids: string[] = [];
  for (let i = 1; i <= 5; i += 1) {
    ids.push((await (await send(i % 2 ? ana : ben, id, { text: `m${i}` })).json<any>())._id);
  }
  return { ana, ben, id, ids };
}

describeAccessChecks(api, [
  { method: 'GET', path: '/api/conversations/:id/messages', check: 'auth' },
  { method: 'POST', path: '/api/conversations/:id/messages', check: 'auth', json: { text: 'hi' } },
]);

describe('sending messages', () => {
  it('stores the message (201) with its sender as a public user and makes it the last message', async () => {
    const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api)];
    const id = await openId(ana, [ben]);
    const res = await send(ana, id, { text: '  see you at the park  ' });
    expect(res.status).toBe(201);
    const message = await res.json<any>();
    expect(message).toMatchObject({
      conversationId: id,
      text: 'see you at the park',
      sender: { _id: ana._id, name: 'Ana' },
    });
    expect(message.sender).not.toHaveProperty('email');
    const inbox = await (await api.fetch('/api/conversations', { headers: { 'x-auth-token': ben.token } })).json<any>();
    expect(inbox.items[0].lastMessage).toEqual(message);
  });

  it.each([
    [{ text: '' }, 'text'],
    [{ text: '   ' }, 'text'],
    [{ text: 'x'.repeat(LIMITS.conversation.messageTextMax + 1) }, 'text'],
    [{}, 'text'],
    [{ text: 'hi', extra: 1 }, 'request body'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const [ana, ben] = [await register(api), await register(api)];
    const res = await send(ana, await openId(ana, [ben]), body);
    expect(res.status).toBe(400);
    expect((await res.json<any>()).details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('keeps every message of concurrent senders and the newest as last activity', async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const id = await openId(ana, [ben]);
    const sent = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 ? ana : ben, id, { text: `${i}` })));
    expect(sent.map((res) => res.status)).toEqual(Array(10).fill(201));
    const ids = (await Promise.all(sent.map((res) => res.json<any>()))).map((m) => m._id).sort();
    expect((await texts(ana, id, '?limit=100')).texts).toHaveLength(10);
    const inbox = await (await api.fetch('/api/conversations', { headers: { 'x-auth-token': ana.token } })).json<any>();
    expect(inbox.items[0].lastMessage._id).toBe(ids.at(-1));
  });
});

describe('reading messages', () => {
  it('pages newest first with a cursor to older messages', async () => {
    const { ana, id } = await chat();
    const first = await texts(ana, id, '?limit=2');
    expect(first.texts).toEqual(['m5', 'm4']);
    const second = await texts(ana, id, `?limit=2&cursor=${first.next}`);
    expect(second.texts).toEqual(['m3', 'm2']);
    const last = await texts(ana, id, `?limit=2&cursor=${second.next}`);
    expect(last).toMatchObject({ texts: ['m1'], next: null });
  });

  it('answers the messages after one, oldest first, within the limit', async () => {
    const { ben, id, ids } = await chat();
    expect((await texts(ben, id, `?after=${ids[1]}`)).texts).toEqual(['m3', 'm4', 'm5']);
    expect(await texts(ben, id, `?after=${ids[1]}&limit=2`)).toMatchObject({ texts: ['m3', 'm4'], next: null });
    expect((await texts(ben, id, `?after=${ids[4]}`)).texts).toEqual([]);
  });

  it.each([
    ['after', '?after=nope'],
    ['cursor', '?cursor=nope'],
    ['limit', '?limit=0'],
    ['after', `?after=${new ObjectId().toHexString()}&cursor=NjU1ZjAwMDAwMDAwMDAwMDAwMDAwMDAw`],
  ])('refuses a bad query with 400 naming %s', async (field, query) => {
    const { ana, id } = await chat();
    const res = await read(ana, id, query);
    expect(res.status).toBe(400);
    expect((await res.json<any>()).details.map((d: { field: string }) => d.field)).toContain(field);
  });
});

describe('who may read and write a conversation', () => {
  it('answers 404 to a non-participant on both routes, and stores nothing', async () => {
    const { id } = await chat();
    const stranger = await register(api);
    expect((await read(stranger, id)).status).toBe(404);
    expect((await send(stranger, id, { text: 'let me in' })).status).toBe(404);
    const count = await api.db((db) =>
      db.collection('dm_messages').countDocuments({ conversationId: new ObjectId(id) }),
    );
    expect(count).toBe(5);
  });

  it('answers 404 for an unknown conversation and 400 for a malformed id', async () => {
    const ana = await register(api);
    expect((await read(ana, new ObjectId().toHexString())).status).toBe(404);
    expect((await send(ana, new ObjectId().toHexString(), { text: 'hi' })).status).toBe(404);
    expect((await read(ana, 'not-an-id')).status).toBe(400);
    expect((await send(ana, 'not-an-id', { text: 'hi' })).status).toBe(400);
  });
});

describe('account deletion', () => {
  it("keeps a deleted rider's messages for the others, without their sender, and takes the rider out", async () => {
    const { ana, ben, id } = await chat();
    const res = await api.fetch(`/api/users/${ben._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ben.token}` },
    });
    expect(res.status).toBe(200);
    const page = await (await read(ana, id)).json<any>();
    expect(page.items.map((m: any) => m.sender?._id ?? null)).toEqual([ana._id, null, ana._id, null, ana._id]);
    const inbox = await (await api.fetch('/api/conversations', { headers: { 'x-auth-token': ana.token } })).json<any>();
    expect(inbox.items[0].participants.map((p: any) => p._id)).toEqual([ana._id]);
  });
});
