import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { joined, next, pause, type RealtimeStack, record, startRealtimeStack } from '../support/realtime-stack';

let stack: RealtimeStack;
beforeAll(async () => {
  stack = await startRealtimeStack({ build: inject('workerBuild') });
}, 60_000);
afterAll(() => stack?.stop());

async function feedReader(name = 'Reader') {
  const rider = await stack.rider(name);
  return { ...rider, socket: await joined(stack.connect('/feed', { auth: { token: rider.token } })) };
}

const post = async (token: string, text: string) => {
  const { status, body } = await stack.api('/feed', { token, body: { text, media: [] } });
  expect(status).toBe(201);
  return body;
};

describe('/feed', () => {
  it('sends a new post to every connected rider, as the public sees it', async () => {
    const [reader, other, author] = await Promise.all([feedReader(), feedReader(), stack.rider('Author')]);
    const seen = [next(reader.socket, 'post:created'), next(other.socket, 'post:created')];
    const stored = await post(author.token, 'new line at the bowl');
    for (const event of await Promise.all(seen)) {
      expect(event).toEqual({
        post: {
          _id: stored._id,
          author: { _id: author.id, name: 'Author' },
          text: 'new line at the bowl',
          media: [],
          counts: stored.counts,
          createdAt: stored.createdAt,
        },
      });
    }
  });

  it("sends reaction counts as they change, and a removed post's id", async () => {
    const [reader, author, fan] = await Promise.all([feedReader(), stack.rider('Author'), stack.rider('Fan')]);
    const created = next(reader.socket, 'post:created');
    const stored = await post(author.token, 'kickflip');
    await created;
    const counted = next(reader.socket, 'post:reactions');
    expect(
      (await stack.api(`/feed/${stored._id}/reactions`, { method: 'PUT', token: fan.token, body: { type: 'love' } }))
        .status,
    ).toBe(200);
    expect(await counted).toEqual({ postId: stored._id, counts: { love: 1, respect: 0 } });
    const switched = next(reader.socket, 'post:reactions');
    await stack.api(`/feed/${stored._id}/reactions`, { method: 'PUT', token: fan.token, body: { type: 'respect' } });
    expect(await switched).toEqual({ postId: stored._id, counts: { love: 0, respect: 1 } });
    const removed = next(reader.socket, 'post:removed');
    expect((await stack.api(`/feed/${stored._id}`, { method: 'DELETE', token: author.token })).status).toBe(200);
    expect(await removed).toEqual({ postId: stored._id });
  });

  it("tells a post's author, and only them, of a comment on it", async () => {
    const [author, bystander, commenter] = await Promise.all([
      feedReader('Author'),
      feedReader(),
      stack.rider('Commenter'),
    ]);
    const created = next(bystander.socket, 'post:created');
    const stored = await post(author.token, 'rate my line');
    await created;
    const elsewhere = record(bystander.socket, 'comment:created');
    const own = record(author.socket, 'comment:created');
    await stack.api(`/feed/${stored._id}/comments`, { token: author.token, body: { text: 'first!' } });
    const notified = next(author.socket, 'comment:created');
    const { body: comment } = await stack.api(`/feed/${stored._id}/comments`, {
      token: commenter.token,
      body: { text: 'clean' },
    });
    expect(await notified).toEqual({ postId: stored._id, comment });
    expect(comment.author).toEqual({ _id: commenter.id, name: 'Commenter' });
    await pause(300);
    expect(elsewhere).toEqual([]);
    expect(own).toHaveLength(1);
  });

  /** Three connected readers, the first having blocked the third. */
  async function blockedTrio() {
    const [blocker, witness, blocked] = await Promise.all([
      feedReader('Blocker'),
      feedReader('Witness'),
      feedReader('Blocked'),
    ]);
    expect(
      (await stack.api(`/users/me/blocks/${blocked.id}`, { method: 'PUT', token: blocker.token })).status,
    ).toBeLessThan(300);
    return { blocker, witness, blocked };
  }

  /** A post the witness sees arrive, then loves and sees the counts of: both events have been sent by then. */
  async function postSeenAndLoved(token: string, text: string, witness: Awaited<ReturnType<typeof feedReader>>) {
    const reached = next(witness.socket, 'post:created');
    const stored = await post(token, text);
    await reached;
    const counted = next(witness.socket, 'post:reactions');
    await stack.api(`/feed/${stored._id}/reactions`, { method: 'PUT', token: witness.token, body: { type: 'love' } });
    await counted;
    return stored;
  }

  it('never sends a rider the posts, counts or comments of someone they blocked', async () => {
    const { blocker, witness, blocked } = await blockedTrio();
    const hidden = record(blocker.socket, 'post:created');
    const hiddenCounts = record(blocker.socket, 'post:reactions');
    const stored = await postSeenAndLoved(blocked.token, 'you will not see this', witness);
    // And the blocked rider never hears of a comment from the one who blocked them, nor the reverse.
    const hiddenComments = record(blocked.socket, 'comment:created');
    await stack.api(`/feed/${stored._id}/comments`, { token: blocker.token, body: { text: 'hidden' } });
    await pause(500);
    expect(hidden).toEqual([]);
    expect(hiddenCounts).toEqual([]);
    expect(hiddenComments).toEqual([]);
  });

  it("never sends the blocked rider the blocker's posts or their counts either", async () => {
    const { blocker, witness, blocked } = await blockedTrio();
    const hidden = record(blocked.socket, 'post:created');
    const hiddenCounts = record(blocked.socket, 'post:reactions');
    await postSeenAndLoved(blocker.token, 'not for the blocked rider', witness);
    // A later post by the witness reaches the blocked rider, after anything the earlier writes sent them.
    const sentinel = next(blocked.socket, 'post:created');
    await post(witness.token, 'after the others');
    expect((await sentinel).post.text).toBe('after the others');
    expect(hidden.map((event) => event.post.text)).toEqual(['after the others']);
    expect(hiddenCounts).toEqual([]);
  });
});

describe('/feed rider:followed', () => {
  it('tells the followed rider, and not the follower, of a stored follow, and that a follow back makes them homies', async () => {
    const [followed, follower, bystander] = await Promise.all([
      feedReader('Followed'),
      feedReader('Follower'),
      feedReader('Bystander'),
    ]);
    const imageUri = 'https://images.example/follower.jpg';
    expect((await stack.api('/users/me', { method: 'PATCH', token: follower.token, body: { imageUri } })).status).toBe(
      200,
    );
    const toFollowed = record(followed.socket, 'rider:followed');
    const toFollower = record(follower.socket, 'rider:followed');
    const toBystander = record(bystander.socket, 'rider:followed');

    const first = next(followed.socket, 'rider:followed');
    const follow = (by: { token: string }, id: string) =>
      stack.api(`/users/${id}/follow`, { method: 'PUT', token: by.token });
    expect((await follow(follower, followed.id)).body.homie).toBe(false);
    expect(await first).toEqual({ follower: { _id: follower.id, name: 'Follower', imageUri }, homie: false });
    // A repeat stores nothing, so it tells no one.
    expect((await follow(follower, followed.id)).status).toBe(200);

    const back = next(follower.socket, 'rider:followed');
    expect((await follow(followed, follower.id)).body.homie).toBe(true);
    expect(await back).toEqual({ follower: { _id: followed.id, name: 'Followed' }, homie: true });
    await pause(300);
    expect(toFollowed).toHaveLength(1);
    expect(toFollower).toHaveLength(1);
    expect(toBystander).toEqual([]);
  });
});
