import { ObjectId } from 'mongodb';
import type { TestAccount } from './accounts';
import { call } from './content';
import type { Api } from './worker-api';

/** Posts to the feed as the account and returns the post's JSON. */
export async function newPost(api: Api, as: TestAccount, json: unknown = { text: 'Kickflip at the plaza' }) {
  const res = await call(api, 'POST', '/api/feed', { as, json });
  if (res.status !== 201) throw new Error(`post not created: ${res.status} ${await res.text()}`);
  return res.json<any>();
}

/** One post as the account (or the public) sees it. */
export async function readPost(api: Api, postId: string, as?: TestAccount) {
  return (await call(api, 'GET', `/api/feed/${postId}`, { as })).json<any>();
}

/** A spot stored directly: posts need only that it exists. */
export async function newSpot(api: Api): Promise<string> {
  const _id = new ObjectId();
  const now = new Date();
  await api.db((db) =>
    db
      .collection('spots')
      .insertOne({ _id, name: 'Ledge plaza', sports: ['skateboarding'], createdAt: now, updatedAt: now }),
  );
  return _id.toHexString();
}
