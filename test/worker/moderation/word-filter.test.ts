import { ObjectId } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { DISGUISED_BAD_WORDS, RIDER_SLANG } from '../../support/rider-slang';
import { createApi } from '../../support/worker-api';

const api = createApi('word-filter');

afterEach(() => {
  vi.useRealTimers();
});

const post = (rider: TestAccount, text: string) => call(api, 'POST', '/api/feed', { as: rider, json: { text } });
const storedPosts = (rider: TestAccount) =>
  api.db((db) => db.collection('feed_posts').countDocuments({ userId: new ObjectId(rider._id) }));

/** A 422 naming `field`, worded for a rider, never repeating the text it refused. */
async function expectRefused(res: Response, field: string, refusedText: string) {
  expect(res.status).toBe(422);
  const body = await res.json<{ error: string; details: { field: string; message: string }[] }>();
  expect(body.details).toEqual([{ field, message: 'uses words that are not allowed' }]);
  expect(body.error).toMatch(/aren't allowed here\. Please reword it/);
  for (const word of refusedText.split(/\s+/)) if (word.length > 2) expect(JSON.stringify(body)).not.toContain(word);
}

describe('the word filter on what riders publish', () => {
  it('refuses a post holding a disguised bad word with a 422 naming the field, and stores nothing', async () => {
    const rider = await register(api);
    for (const text of ['f u c k this ledge', 'what a sh1t session', 'ѕһіт wax']) {
      await expectRefused(await post(rider, text), 'text', text);
    }
    expect(await storedPosts(rider)).toBe(0);
  });

  it("publishes riders' own slang untouched", async () => {
    const rider = await register(api);
    for (const text of RIDER_SLANG) expect((await post(rider, text)).status, text).toBe(201);
    expect(await storedPosts(rider)).toBe(RIDER_SLANG.length);
  });

  it('refuses disguised bad words in comments, rider names, spots, reviews, stay notes and event submissions', async () => {
    const rider = await register(api);
    const { _id: postId } = await (await post(rider, 'bombing the hill')).json<{ _id: string }>();
    const bad = DISGUISED_BAD_WORDS;
    await expectRefused(
      await call(api, 'POST', `/api/feed/${postId}/comments`, { as: rider, json: { text: bad[4] } }),
      'text',
      bad[4],
    );
    await expectRefused(await call(api, 'PATCH', '/api/users/me', { as: rider, json: { name: bad[9] } }), 'name', '');
    const registration = await call(api, 'POST', '/api/users', {
      json: { name: 'b1tch rider', email: `filtered-${crypto.randomUUID()}@example.com`, password: 'correct horse' },
    });
    await expectRefused(registration, 'name', 'b1tch');
    expect(await api.db((db) => db.collection('users').countDocuments({ name: 'b1tch rider' }))).toBe(0);

    const spot = { name: 'Penistone DIY', sports: ['skateboarding'], location: { lat: 53.5, lng: -1.6 } };
    await expectRefused(
      await call(api, 'POST', '/api/spots', { as: rider, json: { ...spot, description: 'a $h1t ledge' } }),
      'description',
      '$h1t',
    );
    const created = await call(api, 'POST', '/api/spots', { as: rider, json: spot });
    expect(created.status).toBe(201);
    const { _id: spotId } = await created.json<{ _id: string }>();
    await expectRefused(
      await call(api, 'PATCH', `/api/spots/${spotId}`, { as: rider, json: { name: 'fuuuck spot' } }),
      'name',
      'fuuuck',
    );
    await expectRefused(
      await call(api, 'POST', `/api/spots/${spotId}/reviews`, { as: rider, json: { rating: 2, text: 'c0ck up' } }),
      'text',
      'c0ck',
    );
    await expectRefused(
      await call(api, 'POST', `/api/spots/${spotId}/stays`, {
        as: rider,
        json: { name: 'Harbour Inn', type: 'hotel', notes: 'the owner is a c u n t' },
      }),
      'notes',
      'c u n t',
    );
    const submission = {
      title: 'Bowl jam',
      sports: ['skateboarding'],
      startLocal: '2031-06-14T10:00',
      timezone: 'Europe/London',
      venue: { name: 'Scunthorpe skatepark', city: 'Scunthorpe', country: 'GB' },
    };
    await expectRefused(
      await call(api, 'POST', '/api/events/submit', {
        as: rider,
        json: { ...submission, organizer: { name: 'fvck crew' } },
      }),
      'organizer.name',
      'fvck',
    );
    expect((await call(api, 'POST', '/api/events/submit', { as: rider, json: submission })).status).toBe(201);
    const stored = await api.db(async (db) => ({
      comments: await db.collection('feed_comments').countDocuments({ postId: new ObjectId(postId) }),
      reviews: await db.collection('spot_reviews').countDocuments({}),
      spots: await db.collection('spots').countDocuments({ createdBy: new ObjectId(rider._id) }),
      name: (await db.collection('users').findOne({ _id: new ObjectId(rider._id) }))?.name,
    }));
    expect(stored).toMatchObject({ comments: 0, reviews: 0, spots: 1 });
    expect(stored.name).not.toBe(bad[9]);
  });

  it('documents the 422 on every route that filters, and on no other', async () => {
    const doc = await (await api.fetch('/api/openapi.json')).json<{
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    }>();
    const filtering = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        operation.responses?.['422'] && !path.startsWith('/api/media') ? [`${method.toUpperCase()} ${path}`] : [],
      ),
    );
    expect(filtering.sort()).toEqual(
      [
        'POST /api/feed',
        'POST /api/feed/{postId}/comments',
        'POST /api/users',
        'PATCH /api/users/me',
        'PATCH /api/users/{id}',
        'POST /api/spots',
        'PATCH /api/spots/{spotId}',
        'POST /api/spots/{spotId}/reviews',
        'POST /api/spots/{spotId}/stays',
        'PUT /api/spots/{spotId}/stays/{stayId}',
        'POST /api/events/submit',
      ].sort(),
    );
  });
});

describe('the term list admins keep', () => {
  const terms = (admin: TestAccount) => call(api, 'GET', '/api/admin/moderation/terms', { as: admin });
  const addTerm = (admin: TestAccount, json: Record<string, unknown>) =>
    call(api, 'POST', '/api/admin/moderation/terms', { as: admin, json });
  const removeTerm = (admin: TestAccount, termId: string, reason: string) =>
    call(api, 'DELETE', `/api/admin/moderation/terms/${termId}`, { as: admin, json: { reason } });

  it('refuses an added term at once, lets it through once removed, and logs both edits with their reasons', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    expect((await post(rider, 'what a wazzock')).status).toBe(201);

    const added = await addTerm(admin, { term: '  WAZZOCK ', reason: 'insult riders reported' });
    expect(added.status).toBe(201);
    const term = await added.json<{ _id: string }>();
    expect(term).toMatchObject({ term: 'wazzock', kind: 'block', match: 'word' });
    expect((await terms(admin)).status).toBe(200);
    expect((await (await terms(admin)).json<{ items: unknown[] }>()).items).toEqual([
      { _id: term._id, term: 'wazzock', kind: 'block', match: 'word', createdAt: expect.any(String) },
    ]);
    await expectRefused(await post(rider, 'what a w4zz0ck'), 'text', 'w4zz0ck');
    expect((await post(rider, 'wazzocks are not a word we list')).status).toBe(201);

    expect((await addTerm(admin, { term: 'wazzock', reason: 'again' })).status).toBe(409);
    const removed = await removeTerm(admin, term._id, 'regional banter, not abuse');
    expect(removed.status).toBe(200);
    expect((await post(rider, 'what a wazzock')).status).toBe(201);
    expect((await removeTerm(admin, term._id, 'twice')).status).toBe(404);

    const log = await (await call(api, 'GET', `/api/admin/moderation/actions`, { as: admin })).json<{
      items: { action: string; actorId: string; target: unknown; reason: string }[];
    }>();
    expect(log.items.filter((item) => item.action.startsWith('term.'))).toEqual([
      expect.objectContaining({
        action: 'term.remove',
        actorId: admin._id,
        target: { type: 'term', id: term._id, text: 'wazzock' },
        reason: 'regional banter, not abuse',
      }),
      expect.objectContaining({
        action: 'term.add',
        actorId: admin._id,
        target: { type: 'term', id: term._id, text: 'wazzock' },
        reason: 'insult riders reported',
      }),
    ]);
  });

  it('lets an allowed term through where the built-in list would refuse it', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    await expectRefused(await post(rider, 'Cocks Lane skatepark'), 'text', 'Cocks');
    const added = await addTerm(admin, { term: 'Cocks Lane', kind: 'allow', reason: 'a street in Newcastle' });
    expect(added.status).toBe(201);
    expect((await post(rider, 'Cocks Lane skatepark')).status).toBe(201);
  });

  it("takes an edit made elsewhere into force within the cache's time", async () => {
    const rider = await register(api);
    expect((await post(rider, 'such a plonker')).status).toBe(201);
    // Another Worker's edit: stored, but this one's cached list does not know it yet.
    await api.db((db) =>
      db
        .collection('moderation_terms')
        .insertOne({ term: 'plonker', kind: 'block', match: 'word', createdAt: new Date(), updatedAt: new Date() }),
    );
    expect((await post(rider, 'such a plonker')).status).toBe(201);
    vi.useFakeTimers({ now: Date.now() + LIMITS.wordFilter.termListCacheMs + 1, toFake: ['Date'] });
    expect((await post(rider, 'such a plonker')).status).toBe(422);
  });

  it('is for admins only, and refuses a blank term or a missing reason', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    const refused = await call(api, 'GET', '/api/admin/moderation/terms', { as: rider });
    expect([refused.status, await refused.text()]).toEqual([403, 'Access denied. Admin only.']);
    expect((await addTerm(admin, { term: ' [] ', reason: 'x' })).status).toBe(400);
    expect((await addTerm(admin, { term: 'numpty' })).status).toBe(400);
    expect((await removeTerm(admin, new ObjectId().toHexString(), 'gone')).status).toBe(404);
  });
});
