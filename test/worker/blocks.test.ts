import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../support/access-checks';
import { register, type TestAccount } from '../support/accounts';
import { call, everyPage, refusedFields } from '../support/content';
import { createApi } from '../support/worker-api';

const api = createApi('blocks');

const block = (userId: string, as: TestAccount) => call(api, 'PUT', `/api/users/me/blocks/${userId}`, { as });
const unblock = (userId: string, as: TestAccount) => call(api, 'DELETE', `/api/users/me/blocks/${userId}`, { as });
const blockedIds = async (as: TestAccount) =>
  (await everyPage<{ _id: string }>(api, '/api/users/me/blocks', 2, as)).flat().map((user) => user._id);
const storedBlocks = (userId: string) =>
  api.db((db) => db.collection('user_blocks').countDocuments({ userId: new ObjectId(userId) }));

describeAccessChecks(api, [
  { method: 'PUT', path: '/api/users/me/blocks/:userId', check: 'auth' },
  { method: 'DELETE', path: '/api/users/me/blocks/:userId', check: 'auth' },
  { method: 'GET', path: '/api/users/me/blocks', check: 'auth' },
]);

describe('blocks', () => {
  it('blocks and unblocks a rider, both idempotent', async () => {
    const [rider, other] = [await register(api), await register(api)];
    for (let i = 0; i < 2; i++) {
      const res = await block(other._id, rider);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ userId: other._id, blocked: true });
    }
    expect(await storedBlocks(rider._id)).toBe(1);
    for (let i = 0; i < 2; i++) {
      const res = await unblock(other._id, rider);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ userId: other._id, blocked: false });
    }
    expect(await storedBlocks(rider._id)).toBe(0);
  });

  it('stores one block when the same rider is blocked 10 times at once', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const results = await Promise.all(Array.from({ length: 10 }, () => block(other._id, rider)));
    expect(results.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(await storedBlocks(rider._id)).toBe(1);
  });

  it('refuses to block yourself with a 400 naming userId', async () => {
    const rider = await register(api);
    const res = await block(rider._id, rider);
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toEqual(['userId']);
    expect(await storedBlocks(rider._id)).toBe(0);
  });

  it('answers 404 for an unknown rider and 400 for a malformed id, storing nothing', async () => {
    const rider = await register(api);
    expect((await block(new ObjectId().toHexString(), rider)).status).toBe(404);
    const bad = await block('not-an-id', rider);
    expect(bad.status).toBe(400);
    expect(await refusedFields(bad)).toEqual(['userId']);
    expect(await storedBlocks(rider._id)).toBe(0);
  });

  it('lists only your blocks as public users, newest first across pages', async () => {
    const [rider, someoneElse] = [await register(api), await register(api)];
    const others = [await register(api), await register(api), await register(api)];
    for (const other of others) expect((await block(other._id, rider)).status).toBe(200);
    expect((await block(others[0]!._id, someoneElse)).status).toBe(200);
    expect(await blockedIds(rider)).toEqual(others.map((other) => other._id).reverse());
    const res = await call(api, 'GET', '/api/users/me/blocks', { as: rider });
    const [first] = (await res.json<{ items: Record<string, unknown>[] }>()).items;
    expect(Object.keys(first!).sort()).toEqual(['_id', 'blockedAt', 'name']);
  });

  it('removes blocks in both directions when either rider deletes their account', async () => {
    const [rider, blocked, blocker] = [await register(api), await register(api), await register(api)];
    expect((await block(blocked._id, rider)).status).toBe(200);
    expect((await block(rider._id, blocker)).status).toBe(200);
    const res = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(res.status).toBe(200);
    expect(await storedBlocks(rider._id)).toBe(0);
    expect(await storedBlocks(blocker._id)).toBe(0);
  });
});
