import { ObjectId } from 'mongodb';
import { expect } from 'vitest';
import { register, type TestAccount } from './accounts';
import type { Api } from './worker-api';

/** Riders' own trick lists and tricks, made through the API for the tests of worker/riding/tricklists and worker/riding/tricks. */
export const as = (account: TestAccount) => ({ 'x-auth-token': account.token });

export async function createList(
  api: Api,
  owner: TestAccount,
  json: object = { name: 'Street', sport: 'skateboarding' },
): Promise<any> {
  const res = await api.fetch('/api/tricklists', { method: 'POST', headers: as(owner), json });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

export async function addTrick(
  api: Api,
  owner: TestAccount,
  listId: string,
  json: object = { name: 'Kickflip' },
): Promise<any> {
  const res = await api.fetch(`/api/tricklists/${listId}/tricks`, { method: 'POST', headers: as(owner), json });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

/** A fresh rider with a list holding one fresh trick, and the trick's path. */
export async function riderWithTrick(api: Api) {
  const rider = await register(api);
  const listId: string = (await createList(api, rider))._id;
  const trick = await addTrick(api, rider, listId);
  return { rider, listId, trick, path: `/api/tricklists/${listId}/tricks/${trick._id}` };
}

export const storedTrick = (api: Api, id: string) =>
  api.db((db) => db.collection('tricks').findOne({ _id: new ObjectId(id) }));

/** The fields a 400 names, in order. */
export async function fieldsRefused(res: Response): Promise<string[]> {
  expect(res.status).toBe(400);
  return (await res.json<any>()).details.map((detail: { field: string }) => detail.field);
}
