import { ObjectId } from 'mongodb';
import { expect } from 'vitest';
import type { TestAccount } from './accounts';
import type { Api } from './worker-api';

export type SpotList = { _id: string; name: string; spotIds: string[]; spotCount: number; createdAt: string };

/** A request with the account's session token. */
export const call = (api: Api, who: TestAccount, method: string, path: string, json?: unknown) =>
  api.fetch(path, { method, headers: { 'x-auth-token': who.token }, ...(json !== undefined ? { json } : {}) });

/** Creates a list through the API and expects it to be created. */
export async function createList(api: Api, who: TestAccount, name = 'Parks'): Promise<SpotList> {
  const res = await call(api, who, 'POST', '/api/spotlists', { name });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export const countLists = (api: Api, who: TestAccount) =>
  api.db((db) => db.collection('spotlists').countDocuments({ userId: new ObjectId(who._id) }));

/** Lists stored directly, as the previous service left them: no counter on the account. */
export const storeListsDirectly = (api: Api, who: TestAccount, count: number) =>
  api.db((db) =>
    db.collection('spotlists').insertMany(
      Array.from({ length: count }, (_, n) => {
        const now = new Date();
        return { userId: new ObjectId(who._id), name: `Old ${n}`, spotIds: [], createdAt: now, updatedAt: now };
      }),
    ),
  );

/** Sets the subscription directly; test/worker/billing/subscriptions.test.ts proves the webhook path. */
export const setSubscription = (api: Api, who: TestAccount, status = 'active') =>
  api.db((db) =>
    db
      .collection('users')
      .updateOne({ _id: new ObjectId(who._id) }, { $set: { subscription: { plan: 'premium', status } } }),
  );
