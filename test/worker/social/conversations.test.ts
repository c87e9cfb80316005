import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('conversations');

const open = (caller: TestAccount, participantIds: unknown) =>
  api.fetch('/api/conversations', {
    method: 'POST',
    headers: { 'x-auth-token': caller.token },
    json: { participantIds },
  });
const openId = async (caller: TestAccount, others: TestAccount[]) =>
  (
    await (
      await open(
        caller,
        others.map((other) => other._id),
      )
    ).json<any>()
  )._id as string;
const send = (caller: TestAccount, conversationId: string, text: string) =>
  api.fetch(`/api/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'x-auth-token': caller.token },
    json: { text },
  });
const sendId = async (caller: TestAccount, conversationId: string, text: string) =>
  (await (await send(caller, conversationId, text)).json<any>())._id as string;
const markRead = (caller: TestAccount, conversationId: string, json: unknown = {}) =>
  api.fetch(`/api/conversations/${conversationId}/read`, {
    method: 'POST',
    headers: { 'x-auth-token': caller.token },
    json,
  });
const inbox = async (caller: TestAccount, query = '') =>
  (await api.fetch(`/api/conversations${query}`, { headers: { 'x-auth-token': caller.token } })).json<any>();

describeAccessChecks(api, [
  {
    method: 'POST',
    path: '/api/conversations',
    check: 'auth',
    json: { participantIds: [new ObjectId().toHexString()] },
  },
  { method: 'GET', path: '/api/conversations', check: 'auth' },
  { method: 'POST', path: '/api/conversations/:id/read', check: 'auth', json: {} },
]);

describe('opening a conversation', () => {
  it('creates one (201) with the caller added, showing participants as public users', async () => {
    const [ana, ben] = [await register(api, { name: 'Ana' }), await register(api, { name: 'Ben' })];
    const res = await open(ana, [ben._id]);
    expect(res.status).toBe(201);
    const body = await res.json<any>();
    expect(body).toMatchObject({ lastMessage: null, unreadCount: 0 });
    expect(body.participants.map((p: any) => p.name).sort()).toEqual(['Ana', 'Ben']);
    expect(body.participants[0]).not.toHaveProperty('email');
  });

  it('returns the existing conversation (200) for the same set, in any order, from any member', async () => {
    const [ana, ben, cy] = [await register(api), await register(api), await register(api)];
    const first = await (await open(ana, [ben._id, cy._id])).json<any>();
    const again = await open(cy, [ana._id, ben._id, cy._id, ben._id]);
    expect(again.status).toBe(200);
    expect((await again.json<any>())._id).toBe(first._id);
    const pair = await open(ana, [ben._id]);
    expect(pair.status).toBe(201);
  });

  it('makes one conversation out of 10 parallel creates of the same set', async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => open(i % 2 ? ana : ben, [ana._id, ben._id])),
    );
    const bodies = await Promise.all(results.map((res) => res.json<any>()));
    expect(new Set(bodies.map((body) => body._id)).size).toBe(1);
    expect(results.filter((res) => res.status === 201)).toHaveLength(1);
    expect(results.filter((res) => res.status === 200)).toHaveLength(9);
    const stored = await api.db((db) =>
      db.collection('conversations').countDocuments({ participantIds: new ObjectId(ana._id) }),
    );
    expect(stored).toBe(1);
  });

  it.each([
    ['no other rider', (me: TestAccount) => [me._id]],
    ['an unknown account', () => [new ObjectId().toHexString()]],
    ['a malformed id', () => ['nope']],
    ['an empty list', () => []],
    ['not a list', () => 'abc'],
    [
      'too many riders',
      () => Array.from({ length: LIMITS.conversation.participantsMax }, () => new ObjectId().toHexString()),
    ],
  ])('refuses %s with 400 naming participantIds', async (_rule, ids) => {
    const me = await register(api);
    const res = await open(me, ids(me));
    expect(res.status).toBe(400);
    const fields = (await res.json<any>()).details.map((d: { field: string }) => d.field);
    expect(fields.some((field: string) => field.startsWith('participantIds'))).toBe(true);
  });
});

describe('listing conversations', () => {
  it('puts the most recent activity first and pages with a cursor', async () => {
    const me = await register(api);
    const others = [await register(api), await register(api), await register(api)];
    const ids = [];
    for (const other of others) ids.push(await openId(me, [other]));
    await sendId(others[0]!, ids[0]!, 'bump the oldest');

    const first = await inbox(me, '?limit=2');
    expect(first.items.map((c: any) => c._id)).toEqual([ids[0], ids[2]]);
    expect(first.items[0].lastMessage).toMatchObject({ text: 'bump the oldest', sender: { _id: others[0]!._id } });
    const second = await inbox(me, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((c: any) => c._id)).toEqual([ids[1]]);
    expect(second.nextCursor).toBeNull();
  });

  it('counts unread messages per conversation and in total, never the caller’s own', async () => {
    const [me, ben, cy] = [await register(api), await register(api), await register(api)];
    const withBen = await openId(me, [ben]);
    const withCy = await openId(me, [cy]);
    await sendId(me, withBen, 'mine');
    await sendId(ben, withBen, 'one');
    await sendId(ben, withBen, 'two');
    await sendId(cy, withCy, 'three');

    const page = await inbox(me, '?limit=1');
    expect(page.totalUnread).toBe(3);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ _id: withCy, unreadCount: 1 });
    const all = await inbox(me);
    expect(all.items.find((c: any) => c._id === withBen).unreadCount).toBe(2);
    expect((await inbox(ben)).totalUnread).toBe(0);
  });

  it('counts a conversation as read up to the caller’s own message when they reply', async () => {
    const [me, ben] = [await register(api), await register(api)];
    const withBen = await openId(me, [ben]);
    await sendId(ben, withBen, 'one');
    expect((await inbox(me)).totalUnread).toBe(1);
    await sendId(me, withBen, 'reply');
    expect((await inbox(me)).totalUnread).toBe(0);
    expect((await inbox(ben)).totalUnread).toBe(1);
  });

  it('refuses a cursor it did not hand out with 400 naming cursor', async () => {
    const res = await api.fetch('/api/conversations?cursor=bogus', {
      headers: { 'x-auth-token': (await register(api)).token },
    });
    expect(res.status).toBe(400);
    expect((await res.json<any>()).details.map((d: { field: string }) => d.field)).toContain('cursor');
  });
});

describe('read markers', () => {
  it('reads to the latest, then to a message, never moving back', async () => {
    const [me, ben] = [await register(api), await register(api)];
    const id = await openId(me, [ben]);
    const first = await sendId(ben, id, 'one');
    await sendId(ben, id, 'two');
    await sendId(ben, id, 'three');

    const partial = await markRead(me, id, { messageId: first });
    expect(partial.status).toBe(200);
    expect(await partial.json<any>()).toMatchObject({ conversationId: id, unreadCount: 2 });

    const latest = await (await markRead(me, id)).json<any>();
    expect(latest.unreadCount).toBe(0);
    const back = await (await markRead(me, id, { messageId: first })).json<any>();
    expect(back).toEqual(latest);
    expect((await inbox(me)).totalUnread).toBe(0);
  });

  it('keeps the newest of concurrent reads, whatever order they land in', async () => {
    const [me, ben] = [await register(api), await register(api)];
    const id = await openId(me, [ben]);
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push(await sendId(ben, id, `m${i}`));
    const reads = await Promise.all([...ids].reverse().map((messageId) => markRead(me, id, { messageId })));
    expect(reads.map((res) => res.status)).toEqual(Array(6).fill(200));
    expect((await inbox(me)).totalUnread).toBe(0);
    const stored = await api.db((db) => db.collection('conversations').findOne({ _id: new ObjectId(id) }));
    const marker = stored!.readMarkers.find((m: any) => m.userId.toHexString() === me._id);
    expect(marker.messageId.toHexString()).toBe(ids.at(-1));
  });

  it('answers 404 for a message of another conversation and 400 for a malformed one', async () => {
    const [me, ben, cy] = [await register(api), await register(api), await register(api)];
    const id = await openId(me, [ben]);
    const elsewhere = await sendId(cy, await openId(cy, [ben]), 'hi');
    expect((await markRead(me, id, { messageId: elsewhere })).status).toBe(404);
    const bad = await markRead(me, id, { messageId: 'x' });
    expect(bad.status).toBe(400);
    expect((await bad.json<any>()).details.map((d: { field: string }) => d.field)).toContain('messageId');
  });

  it('answers 404 to a non-participant and for an unknown conversation', async () => {
    const [me, ben, stranger] = [await register(api), await register(api), await register(api)];
    const id = await openId(me, [ben]);
    expect((await markRead(stranger, id)).status).toBe(404);
    expect((await markRead(me, new ObjectId().toHexString())).status).toBe(404);
    expect((await markRead(me, 'not-an-id')).status).toBe(400);
  });
});
