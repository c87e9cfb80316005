import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('spot-reviews');

/** A spot stored directly: the reviews resource needs only that it exists. */
async function newSpot(): Promise<string> {
  const _id = new ObjectId();
  const now = new Date();
  await api.db((db) =>
    db
      .collection('spots')
      .insertOne({ _id, name: 'Ledge plaza', sports: ['skateboarding'], createdAt: now, updatedAt: now }),
  );
  return _id.toHexString();
}

const review = (spotId: string, account: TestAccount, json: unknown) =>
  api.fetch(`/api/spots/${spotId}/reviews`, { method: 'POST', headers: { 'x-auth-token': account.token }, json });
const reviews = async (spotId: string, query = '') =>
  (await api.fetch(`/api/spots/${spotId}/reviews${query}`)).json<any>();

describeAccessChecks(api, [
  { method: 'POST', path: '/api/spots/:spotId/reviews', check: 'auth', json: { rating: 4 } },
  { method: 'DELETE', path: '/api/spots/:spotId/reviews/:reviewId', check: 'auth' },
]);

describe('spot reviews', () => {
  it('creates a review (201), shows its author as a public user, and replaces it on a second POST (200)', async () => {
    const [spotId, rider] = [await newSpot(), await register(api, { name: 'Leo' })];
    const first = await review(spotId, rider, { rating: 3, text: 'Rough ground' });
    expect(first.status).toBe(201);
    const created = await first.json<any>();
    expect(created).toMatchObject({ spotId, rating: 3, text: 'Rough ground', user: { _id: rider._id, name: 'Leo' } });
    expect(created.user).not.toHaveProperty('email');

    const second = await review(spotId, rider, { rating: 5 });
    expect(second.status).toBe(200);
    const replaced = await second.json<any>();
    expect(replaced).toMatchObject({ _id: created._id, rating: 5 });
    expect(replaced).not.toHaveProperty('text');
    expect(await reviews(spotId)).toMatchObject({ reviewCount: 1, ratingAverage: 5, items: [{ _id: created._id }] });
  });

  it.each([
    [{ rating: 0 }, 'rating'],
    [{ rating: 6 }, 'rating'],
    [{ rating: 4.5 }, 'rating'],
    [{ rating: '5' }, 'rating'],
    [{}, 'rating'],
    [{ rating: 4, text: 'x'.repeat(2001) }, 'text'],
    [{ rating: 4, stars: 4 }, 'request body'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const res = await review(spotId, rider, body);
    expect(res.status).toBe(400);
    expect((await res.json<any>()).details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await reviews(spotId)).reviewCount).toBe(0);
  });

  it('answers 404 for an unknown spot and 400 for a malformed spot id', async () => {
    const rider = await register(api);
    expect((await review(new ObjectId().toHexString(), rider, { rating: 4 })).status).toBe(404);
    expect((await api.fetch(`/api/spots/${new ObjectId().toHexString()}/reviews`)).status).toBe(404);
    expect((await review('nope', rider, { rating: 4 })).status).toBe(400);
  });

  it('keeps the mean rating and count exact under 20 parallel reviews', async () => {
    const spotId = await newSpot();
    const riders = await Promise.all(Array.from({ length: 20 }, () => register(api)));
    const ratings = riders.map((_, i) => (i % 5) + 1);
    const results = await Promise.all(riders.map((rider, i) => review(spotId, rider, { rating: ratings[i] })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const summary = await reviews(spotId, '?limit=100');
    expect(summary.reviewCount).toBe(20);
    expect(summary.ratingAverage).toBeCloseTo(ratings.reduce((a, b) => a + b, 0) / 20, 10);
    expect(summary.items).toHaveLength(20);
  });

  it('keeps one review when the same rider posts 10 times at once', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => review(spotId, rider, { rating: (i % 5) + 1 })),
    );
    expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect((await reviews(spotId)).reviewCount).toBe(1);
  });

  it('pages newest first with a cursor', async () => {
    const spotId = await newSpot();
    for (let i = 0; i < 3; i++) await review(spotId, await register(api), { rating: 4 });
    const first = await reviews(spotId, '?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await reviews(spotId, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect(first.reviewCount).toBe(3);
  });

  it('lets the author or an admin delete a review, refuses anyone else with 403, and answers 404 after', async () => {
    const spotId = await newSpot();
    const [author, other, admin] = [await register(api), await register(api), await registerAdmin(api)];
    const mine = await (await review(spotId, author, { rating: 2 })).json<any>();
    const path = `/api/spots/${spotId}/reviews/${mine._id}`;
    const del = (account: TestAccount) =>
      api.fetch(path, { method: 'DELETE', headers: { 'x-auth-token': account.token } });

    const refused = await del(other);
    expect(refused.status).toBe(403);
    expect((await reviews(spotId)).reviewCount).toBe(1);

    expect(await (await del(author)).json()).toEqual({ deleted: true, reviewId: mine._id });
    expect((await del(author)).status).toBe(404);

    const theirs = await (await review(spotId, other, { rating: 4 })).json<any>();
    const byAdmin = await api.fetch(`/api/spots/${spotId}/reviews/${theirs._id}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': admin.token },
    });
    expect(byAdmin.status).toBe(200);
    expect(await reviews(spotId)).toMatchObject({ reviewCount: 0, ratingAverage: null, items: [] });
  });

  it('shows a review whose author deleted their account as gone, not as someone else', async () => {
    const [spotId, rider] = [await newSpot(), await register(api)];
    await review(spotId, rider, { rating: 4 });
    await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(await reviews(spotId)).toMatchObject({ reviewCount: 0, items: [] });
  });
});

describe('a spot shows its rating', () => {
  it('carries ratingAverage and reviewCount on GET /api/spots/{spotId} and in the spot list', async () => {
    const [spotId, a, b] = [await newSpot(), await register(api), await register(api)];
    const before = await (await api.fetch(`/api/spots/${spotId}`)).json<any>();
    expect(before).toMatchObject({ ratingAverage: null, reviewCount: 0 });
    await review(spotId, a, { rating: 2 });
    await review(spotId, b, { rating: 5 });
    expect(await (await api.fetch(`/api/spots/${spotId}`)).json()).toMatchObject({
      ratingAverage: 3.5,
      reviewCount: 2,
    });
    const listed = await (await api.fetch('/api/spots?limit=100')).json<any>();
    expect(listed.items.find((spot: any) => spot._id === spotId)).toMatchObject({ ratingAverage: 3.5, reviewCount: 2 });
  });
});
