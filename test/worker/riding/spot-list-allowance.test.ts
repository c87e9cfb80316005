import { describe, expect, it } from 'vitest';
import { register, type TestAccount } from '../../support/accounts';
import {
  call as callAs,
  countLists,
  createList as createListAs,
  setSubscription,
  storeListsDirectly,
} from '../../support/spot-lists';
import { createApi } from '../../support/worker-api';

// The subscription check on POST /api/spotlists (interface spec, Limits; test/worker/platform/access-checks.test.ts
// covers the check on its own route).
const api = createApi('spot-list-allowance');
const UPGRADE = { error: 'Upgrade to premium for unlimited spot lists' };
const create = (who: TestAccount, name = 'Another') => callAs(api, who, 'POST', '/api/spotlists', { name });
const createList = (who: TestAccount) => createListAs(api, who);
const tenAtOnce = (who: TestAccount) =>
  Promise.all(Array.from({ length: 10 }, (_, i) => create(who, `Race ${i}`)).map(async (res) => (await res).status));

describe('the free allowance of 3 spot lists', () => {
  it('refuses a free rider a 4th list with the exact upgrade error, and allows one again after a delete', async () => {
    const rider = await register(api);
    const lists = [await createList(rider), await createList(rider), await createList(rider)];
    const fourth = await create(rider);
    expect(fourth.status).toBe(403);
    expect(await fourth.json()).toEqual(UPGRADE);
    expect(await countLists(api, rider)).toBe(3);

    await callAs(api, rider, 'DELETE', `/api/spotlists/${lists[0]!._id}`);
    expect((await create(rider)).status).toBe(201);
    expect((await create(rider)).status).toBe(403);
  });

  it('does not limit a premium-active rider, but does limit premium with another status', async () => {
    const [active, pastDue] = [await register(api), await register(api)];
    await setSubscription(api, active);
    await setSubscription(api, pastDue, 'past_due');
    for (let i = 0; i < 5; i++) await createList(active);
    expect(await countLists(api, active)).toBe(5);
    for (let i = 0; i < 3; i++) await createList(pastDue);
    expect((await create(pastDue)).status).toBe(403);
  });

  it('counts the lists created while premium once the subscription lapses', async () => {
    const rider = await register(api);
    await setSubscription(api, rider);
    for (let i = 0; i < 4; i++) await createList(rider);
    await setSubscription(api, rider, 'expired');
    expect(await (await create(rider)).json()).toEqual(UPGRADE);
  });

  it('leaves exactly 3 lists after 10 parallel creations by a free rider who owns 2', async () => {
    const rider = await register(api);
    await createList(rider);
    await createList(rider);
    expect((await tenAtOnce(rider)).sort()).toEqual([201, ...Array(9).fill(403)]);
    expect(await countLists(api, rider)).toBe(3);
  });

  it('lets a premium-active rider create 10 lists in parallel', async () => {
    const rider = await register(api);
    await setSubscription(api, rider);
    expect(await tenAtOnce(rider)).toEqual(Array(10).fill(201));
    expect(await countLists(api, rider)).toBe(10);
  });
});

describe('lists stored before the allowance counter existed', () => {
  it('counts them: 10 parallel creations by a rider with 2 such lists leave exactly 3', async () => {
    const rider = await register(api);
    await storeListsDirectly(api, rider, 2);
    expect((await tenAtOnce(rider)).filter((status) => status === 201)).toHaveLength(1);
    expect(await countLists(api, rider)).toBe(3);
  });

  it('counts them when the first change is a delete: a rider with 3 may then create exactly one', async () => {
    const rider = await register(api);
    await storeListsDirectly(api, rider, 3);
    const { items } = await (await callAs(api, rider, 'GET', '/api/spotlists')).json<{ items: { _id: string }[] }>();
    expect((await callAs(api, rider, 'DELETE', `/api/spotlists/${items[0]!._id}`)).status).toBe(200);
    expect((await create(rider)).status).toBe(201);
    expect((await create(rider)).status).toBe(403);
  });
});
