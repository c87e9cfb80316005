import { ObjectId } from 'mongodb';
import { expect } from 'vitest';
import type { TestAccount } from './accounts';
import type { Api } from './worker-api';

/** The stays routes as a test calls them, on spots stored directly (the stays resource needs only the document). */
export function stayCalls(api: Api) {
  const token = (account: TestAccount) => ({ 'x-auth-token': account.token });
  const post = (spotId: string, account: TestAccount, json: unknown) =>
    api.fetch(`/api/spots/${spotId}/stays`, { method: 'POST', headers: token(account), json });
  return {
    async newSpot(fields: Record<string, unknown> = {}): Promise<string> {
      const _id = new ObjectId();
      const now = new Date();
      const spot = { _id, name: 'Harbour park', sports: ['skateboarding'], createdAt: now, updatedAt: now, ...fields };
      await api.db((db) => db.collection('spots').insertOne(spot));
      return _id.toHexString();
    },
    post,
    put: (spotId: string, stayId: string, account: TestAccount, json: unknown) =>
      api.fetch(`/api/spots/${spotId}/stays/${stayId}`, { method: 'PUT', headers: token(account), json }),
    del: (spotId: string, stayId: string, account: TestAccount) =>
      api.fetch(`/api/spots/${spotId}/stays/${stayId}`, { method: 'DELETE', headers: token(account) }),
    storedSpot: (spotId: string) => api.db((db) => db.collection('spots').findOne({ _id: new ObjectId(spotId) })),
    /** Creates a stay and expects the 201. */
    async created(spotId: string, account: TestAccount, json: Record<string, unknown>): Promise<any> {
      const res = await post(spotId, account, json);
      expect(res.status, await res.clone().text()).toBe(201);
      return res.json();
    },
  };
}

/** The fields a 400 or 409 names in its details. */
export const detailFields = (body: any): string[] => (body.details ?? []).map((d: { field: string }) => d.field);
