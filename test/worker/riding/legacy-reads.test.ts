import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// Riding documents as older code stored them (no schema: strings for numbers and dates, missing fields, one value
// where a list belongs, extra fields), written straight through the driver, then read through every riding list.

const api = createApi('legacy-riding-reads');
let rider: TestAccount;
let admin: TestAccount;
beforeAll(async () => {
  rider = await register(api);
  admin = await registerAdmin(api);
  await api.fetch('/api/health');
});

const insert = (collection: string, docs: object[]) =>
  api.db((db) => db.collection(collection).insertMany(docs as never[]));
const getJson = async (path: string, as?: TestAccount) => {
  const res = await call(api, 'GET', path, { as });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<any>();
};
/** The ids of every item of a paged list, page by page, and the unreadable-document lines written meanwhile. */
async function walk(path: string, limit: number, as?: TestAccount) {
  let pages: { _id: string }[][] = [];
  const lines = await captureLogLines(async () => {
    pages = await everyPage(api, path, limit, as);
  });
  return { ids: pages.flat().map((item) => item._id), unreadable: eventLines(lines, 'store.document.unreadable') };
}

describe('trick lists and tricks stored by older code', () => {
  const legacyList = new ObjectId();
  const legacyTrick = new ObjectId();
  beforeAll(async () => {
    const userId = new ObjectId(rider._id);
    await insert('tricklists', [
      {
        _id: legacyList,
        userId,
        name: 42,
        sport: null,
        reminderCadence: 'monthly',
        lastOpenedAt: 'not a date',
        createdAt: '2019-03-01T10:00:00.000Z',
        updatedAt: 1551434400000,
        __v: 0,
      },
      { _id: 12345, userId, name: 'no usable id' },
    ]);
    await insert('tricks', [
      {
        _id: legacyTrick,
        userId,
        listId: legacyList,
        name: 'Ollie',
        status: 'done',
        attempts: '5',
        completed: 'true',
        landedAt: '2020-05-01T12:00:00.000Z',
        updatedAt: null,
      },
    ]);
  });

  it('shows each list with its documented defaults and leaves out the one without a usable id, naming it', async () => {
    const { ids, unreadable } = await walk('/api/tricklists', 10, rider);
    expect(ids).toEqual([legacyList.toHexString()]);
    expect(unreadable).toEqual([expect.objectContaining({ collection: 'tricklists', id: '12345' })]);
    expect((await walk('/api/tricklists', 1, rider)).ids).toEqual(ids);
    const [list] = (await getJson('/api/tricklists', rider)).items;
    expect(list).toEqual({
      _id: legacyList.toHexString(),
      name: '42',
      sport: 'skateboarding',
      reminderCadence: 'weekly',
      lastOpenedAt: null,
      createdAt: '2019-03-01T10:00:00.000Z',
      updatedAt: new Date(1551434400000).toISOString(),
      trickCount: 1,
    });
    expect((await getJson('/api/listings', rider)).tricklists).toHaveLength(1);
    expect(await getJson('/api/users/me/reminder-cadence', rider)).toEqual([
      { listId: legacyList.toHexString(), cadence: 'weekly' },
    ]);
  });

  it('opens the list and shows its trick with a numeric count, a known status and dates', async () => {
    expect(await getJson(`/api/tricklists/${legacyList}`, rider)).toMatchObject({ name: '42', trickCount: 1 });
    const [trick] = (await getJson(`/api/tricklists/${legacyList}/tricks`, rider)).items;
    expect(trick).toMatchObject({
      _id: legacyTrick.toHexString(),
      listId: legacyList.toHexString(),
      name: 'Ollie',
      status: 'landed',
      attempts: 5,
      completed: true,
      trickipediaId: null,
      landedAt: '2020-05-01T12:00:00.000Z',
      createdAt: legacyTrick.getTimestamp().toISOString(),
      updatedAt: legacyTrick.getTimestamp().toISOString(),
    });
  });
});

describe('the encyclopedia stored by older code', () => {
  const entry = new ObjectId();
  const post = new ObjectId();
  const orphan = new ObjectId();
  const category = new ObjectId();
  beforeAll(async () => {
    await insert('trickipedia', [
      {
        _id: entry,
        name: 'Boneless',
        slug: 'boneless',
        sport: 'longboarding',
        category: 'old-school',
        difficulty: '3',
        aliases: 'bonie',
        createdAt: 1262304000,
      },
      { _id: 'not-an-id', name: 'Broken', slug: 'broken' },
    ]);
    await insert('blog', [
      {
        _id: post,
        title: 12,
        slug: 'twelve',
        body: null,
        tags: 'news',
        status: 'published',
        publishedAt: '2018-06-01T00:00:00.000Z',
        authorId: admin._id,
        createdAt: '2018-05-30T00:00:00.000Z',
      },
      { _id: orphan, title: 'By no one', slug: 'orphan', body: 'Text', status: 'published', authorId: new ObjectId() },
    ]);
    await insert('categories', [
      { _id: category, name: 'Old school', slug: 'old-school', sport: 'skiing', entryCount: '4', __v: 3 },
    ]);
  });

  it('lists and shows a trickipedia entry with defaults, leaving out the one without a usable id', async () => {
    const { ids, unreadable } = await walk('/api/trickipedia', 1);
    expect(ids).toEqual([entry.toHexString()]);
    expect((await walk('/api/trickipedia', 10)).ids).toEqual(ids);
    expect(unreadable).toEqual([expect.objectContaining({ collection: 'trickipedia', id: 'not-an-id' })]);
    expect(await getJson(`/api/trickipedia/${entry}`)).toEqual({
      _id: entry.toHexString(),
      name: 'Boneless',
      slug: 'boneless',
      sport: 'skateboarding',
      category: 'old-school',
      description: '',
      difficulty: 3,
      aliases: ['bonie'],
      createdAt: new Date(1262304000 * 1000).toISOString(),
      updatedAt: new Date(1262304000 * 1000).toISOString(),
    });
  });

  it('lists and shows a blog post with a number for a title and no body', async () => {
    const { ids } = await walk('/api/blog', 1);
    expect(ids).toContain(post.toHexString());
    expect(await getJson(`/api/blog/${post}`)).toMatchObject({
      title: '12',
      body: '',
      tags: ['news'],
      status: 'published',
      publishedAt: '2018-06-01T00:00:00.000Z',
      authorId: admin._id,
      createdAt: '2018-05-30T00:00:00.000Z',
    });
  });

  it('shows a post whose author no longer exists as one whose author deleted their account: no authorId', async () => {
    expect(await getJson(`/api/blog/${orphan}`)).not.toHaveProperty('authorId');
    const listed = (await getJson('/api/blog')).items.find((item: { _id: string }) => item._id === String(orphan));
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('authorId');
  });

  it('lists a category with its count stored as text', async () => {
    const { items } = await getJson('/api/categories');
    expect(items).toEqual([
      expect.objectContaining({ _id: category.toHexString(), slug: 'old-school', entryCount: 4 }),
    ]);
    expect(items[0].sport).toBeUndefined();
  });
});

describe('spots and what hangs off them, stored by older code', () => {
  const spot = new ObjectId();
  const stay = new ObjectId();
  const list = new ObjectId();
  const gone = new ObjectId();
  beforeAll(async () => {
    await insert('spots', [
      {
        _id: spot,
        name: 'Old Bowl',
        sports: 'bmx',
        city: 'Berlin',
        createdBy: rider._id,
        stays: [
          {
            _id: stay,
            name: 'Pension',
            type: 'motel',
            rating: '4.5',
            sourceConfidence: 0.95,
            tags: 'cheap',
            createdBy: rider._id,
          },
          'Hotel written as a bare name',
        ],
        updatedAt: '2017-01-01T00:00:00.000Z',
      },
      { _id: 99, name: 'Spot with a number for an id' },
    ]);
    await insert('spot_reviews', [
      { _id: new ObjectId(), spotId: spot, userId: gone, rating: '4', text: 5, createdAt: '2019-01-01' },
      { _id: new ObjectId(), spotId: spot, userId: rider._id, rating: 5 },
    ]);
    await insert('spot_trick_history', [
      { _id: new ObjectId(), spotId: spot, userId: rider._id, trickName: null, createdAt: 'yesterday' },
    ]);
    await insert('spotlists', [
      {
        _id: list,
        userId: new ObjectId(rider._id),
        spotIds: { 0: spot.toHexString(), 1: 'junk' },
        createdAt: 1546300800,
      },
    ]);
  });

  it('searches, syncs and shows the spot, leaving out the one without a usable id', async () => {
    const { ids, unreadable } = await walk('/api/spots', 10);
    expect(ids).toEqual([spot.toHexString()]);
    expect(unreadable).toEqual(expect.arrayContaining([expect.objectContaining({ collection: 'spots', id: '99' })]));
    expect((await walk('/api/spots', 1)).ids).toEqual(ids);
    const sync = await getJson('/api/spots/sync');
    expect(sync.spots.map((each: { _id: string }) => each._id)).toEqual([spot.toHexString()]);
    expect(await getJson(`/api/spots/${spot}`)).toMatchObject({
      name: 'Old Bowl',
      sports: ['bmx'],
      location: null,
      createdBy: rider._id,
      stayCount: 1,
      createdAt: spot.getTimestamp().toISOString(),
      updatedAt: '2017-01-01T00:00:00.000Z',
    });
  });

  it("lists the spot's stays and finds them in a stay search, leaving out a stay stored as a bare name", async () => {
    const { items } = await getJson(`/api/spots/${spot}/stays`);
    expect(items).toEqual([
      expect.objectContaining({
        _id: stay.toHexString(),
        spotId: spot.toHexString(),
        spotName: 'Old Bowl',
        name: 'Pension',
        type: 'other',
        rating: 4.5,
        tags: ['cheap'],
        createdBy: rider._id,
      }),
    ]);
    const search = await walk('/api/stays/search', 1);
    expect(search.ids).toEqual([stay.toHexString()]);
  });

  it('shows reviews by a rider who no longer exists as a deleted rider, and trick history with defaults', async () => {
    const reviews = await getJson(`/api/spots/${spot}/reviews`);
    expect(reviews).toMatchObject({ ratingAverage: 4.5, reviewCount: 2 });
    expect(reviews.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user: null, rating: 4, text: '5', createdAt: '2019-01-01T00:00:00.000Z' }),
        expect.objectContaining({ user: expect.objectContaining({ _id: rider._id }), rating: 5 }),
      ]),
    );
    const [landing] = (await getJson(`/api/spots/${spot}/trick-history`)).items;
    expect(landing).toMatchObject({ user: expect.objectContaining({ _id: rider._id }), trickName: '' });
    expect(Date.parse(landing.landedAt)).not.toBeNaN();
  });

  it('shows a spot list whose ids are stored as text in an object', async () => {
    const [shown] = (await getJson('/api/spotlists', rider)).items;
    expect(shown).toEqual({
      _id: list.toHexString(),
      name: '',
      spotIds: [spot.toHexString()],
      spotCount: 1,
      createdAt: new Date(1546300800 * 1000).toISOString(),
      updatedAt: new Date(1546300800 * 1000).toISOString(),
    });
    expect((await getJson(`/api/spotlists/${list}`, rider)).spotIds).toEqual([spot.toHexString()]);
    expect((await getJson('/api/listings', rider)).spotlists).toHaveLength(1);
  });
});
