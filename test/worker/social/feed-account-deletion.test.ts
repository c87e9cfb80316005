import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { call } from '../../support/content';
import { newPost, readPost } from '../../support/feed';
import { createApi } from '../../support/worker-api';

const api = createApi('feed-account-deletion');

describe('account deletion and the feed', () => {
  it("takes a deleted rider's reactions and comments off others' post counts, and their posts' dependants with them", async () => {
    const [doomed, bystander] = [await register(api), await register(api)];
    const [theirs, mine] = [await newPost(api, bystander), await newPost(api, doomed)];
    const act = (as: typeof doomed, method: 'PUT' | 'POST', path: string, json?: unknown) =>
      call(api, method, `/api/feed/${path}`, { as, json });
    await act(bystander, 'PUT', `${theirs._id}/reactions`, { type: 'respect' });
    await act(doomed, 'PUT', `${theirs._id}/reactions`, { type: 'love' });
    await act(bystander, 'POST', `${theirs._id}/comments`, { text: 'mine' });
    await act(doomed, 'POST', `${theirs._id}/comments`, { text: 'doomed' });
    await act(doomed, 'POST', `${theirs._id}/comments`, { text: 'doomed again' });
    await act(bystander, 'PUT', `${mine._id}/reactions`, { type: 'love' });
    await act(bystander, 'POST', `${mine._id}/comments`, { text: 'on a doomed post' });
    await act(bystander, 'PUT', `${mine._id}/save`);
    expect((await readPost(api, theirs._id)).counts).toEqual({ love: 1, respect: 1, comments: 3 });

    const res = await api.fetch(`/api/users/${doomed._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${doomed.token}` },
    });
    expect(res.status).toBe(200);

    expect((await readPost(api, theirs._id)).counts).toEqual({ love: 0, respect: 1, comments: 1 });
    expect((await api.fetch(`/api/feed/${mine._id}`)).status).toBe(404);
    const postId = new ObjectId(mine._id);
    const left = await api.db((db) =>
      Promise.all(
        ['reactions', 'feed_comments', 'saved_posts'].map((name) => db.collection(name).countDocuments({ postId })),
      ),
    );
    expect(left).toEqual([0, 0, 0]);
  });
});
