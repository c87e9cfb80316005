import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

// Deleting an account over social documents older code stored, written straight through the driver.
const api = createApi('legacy-social-deletion');

describe('deleting an account over social documents older code stored', () => {
  it('takes the rider’s reaction, comment and follow off counters stored as strings, and their hex-string traces with them', async () => {
    const [doomed, author] = [await register(api), await register(api)];
    const postId = new ObjectId();
    const doomedHex = doomed._id;
    await api.db(async (db) => {
      await db.collection('feed_posts').insertOne({
        _id: postId,
        userId: new ObjectId(author._id),
        text: 'old',
        counts: { love: '5', comments: '2' },
      });
      await db
        .collection('reactions')
        .insertOne({ _id: new ObjectId(), postId, userId: new ObjectId(doomedHex), type: 'love' });
      await db
        .collection('feed_comments')
        .insertOne({ _id: new ObjectId(), postId, userId: doomedHex, text: 'hex author' });
      await db.collection('feed_posts').insertOne({ _id: new ObjectId(), userId: doomedHex, text: 'hex post' });
      await db.collection('saved_posts').insertOne({ _id: new ObjectId(), postId, userId: doomedHex });
      await db
        .collection('user_blocks')
        .insertOne({ _id: new ObjectId(), userId: doomedHex, blockedUserId: author._id });
      await db.collection('follows').insertOne({ _id: new ObjectId(), followerId: doomedHex, followedId: author._id });
      await db.collection('users').updateOne({ _id: new ObjectId(author._id) }, { $set: { followerCount: '1' } });
    });
    const res = await api.fetch(`/api/users/${doomed._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${doomed.token}` },
    });
    expect(res.status).toBe(200);
    const post = await api.db((db) => db.collection('feed_posts').findOne({ _id: postId }));
    expect(post!.counts).toEqual({ love: 4, respect: 0, comments: 1 });
    const left = await api.db(async (db) =>
      Promise.all(
        ['feed_posts', 'feed_comments', 'saved_posts', 'user_blocks', 'reactions'].map((name) =>
          db.collection(name).countDocuments({ userId: { $in: [doomedHex, new ObjectId(doomedHex)] } }),
        ),
      ),
    );
    expect(left).toEqual([0, 0, 0, 0, 0]);
    const follows = await api.db((db) => db.collection('follows').countDocuments({ followerId: doomedHex }));
    expect(follows).toBe(0);
    const authorAccount = await api.db((db) => db.collection('users').findOne({ _id: new ObjectId(author._id) }));
    expect(authorAccount!.followerCount).toBe(0);
  });
});
