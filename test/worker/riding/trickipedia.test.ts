import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { registerAdmin, type TestAccount } from '../../support/accounts';
import { call, createCategory, everyPage, refusedFields } from '../../support/content';
import { createApi } from '../../support/worker-api';

const api = createApi('trickipedia');
let admin: TestAccount;
let flips: string;
let grinds: string;
beforeAll(async () => {
  admin = await registerAdmin(api);
  flips = (await createCategory(api, admin, { name: 'Flips', slug: 'flips' })).slug;
  grinds = (await createCategory(api, admin, { name: 'Grinds', slug: 'grinds' })).slug;
});

const tag = () => crypto.randomUUID().slice(0, 8);
const kickflip = (overrides: Record<string, unknown> = {}) => ({
  name: `Kickflip ${tag()}`,
  sport: 'skateboarding',
  category: flips,
  description: 'An ollie with a flick off the heel-side edge of the nose.',
  difficulty: 3,
  aliases: ['Flip'],
  videoUrl: 'https://video.example.com/kickflip.mp4',
  ...overrides,
});
const create = (json: unknown) => call(api, 'POST', '/api/trickipedia', { as: admin, json });
const entryCount = async (slug: string) =>
  (await api.db((db) => db.collection('categories').findOne({ slug })))!.entryCount as number;

describe('trickipedia entries', () => {
  it('creates an entry with a derived slug, readable by anyone', async () => {
    const json = kickflip({ name: 'Varial Kickflip' });
    const res = await create(json);
    expect(res.status).toBe(201);
    const created = await res.json<any>();
    expect(created).toEqual({
      ...json,
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      slug: 'varial-kickflip',
      createdAt: created.updatedAt,
      updatedAt: expect.any(String),
    });
    const read = await call(api, 'GET', `/api/trickipedia/${created._id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(created);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await call(api, 'GET', `/api/trickipedia/${new ObjectId().toHexString()}`)).status).toBe(404);
    expect(await refusedFields(await call(api, 'GET', '/api/trickipedia/nope'))).toEqual(['id']);
  });

  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a sport outside the taxonomy', { sport: 'surfing' }, 'sport'],
    ['a category that is not a slug', { category: 'Flip Tricks' }, 'category'],
    ['a category no category has', { category: 'no-such-category' }, 'category'],
    ['no description', { description: undefined }, 'description'],
    ['a description over the limit', { description: 'x'.repeat(LIMITS.content.descriptionMax + 1) }, 'description'],
    ['difficulty 0', { difficulty: 0 }, 'difficulty'],
    ['difficulty 6', { difficulty: 6 }, 'difficulty'],
    ['a fractional difficulty', { difficulty: 2.5 }, 'difficulty'],
    [
      'too many aliases',
      { aliases: Array.from({ length: LIMITS.content.aliasesMax + 1 }, (_, i) => `a${i}`) },
      'aliases',
    ],
    ['an empty alias', { aliases: [' '] }, 'aliases.0'],
    ['a javascript: video URL', { videoUrl: 'javascript:alert(1)' }, 'videoUrl'],
    ['an ftp video URL', { videoUrl: 'ftp://example.com/a.mp4' }, 'videoUrl'],
    ['a malformed slug', { slug: 'Kick Flip' }, 'slug'],
    ['a name no slug can be derived from, and no slug', { name: '🛹' }, 'slug'],
    ['an unknown field', { stance: 'goofy' }, 'request body'],
  ])('refuses %s with a 400 naming the field', async (_rule, overrides, field) => {
    const before = await entryCount(flips);
    const res = await create(kickflip(overrides));
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toEqual([field]);
    expect(await entryCount(flips)).toBe(before);
  });

  it('refuses a taken slug with 409 and gives back the category it held', async () => {
    const slug = `taken-${tag()}`;
    await create(kickflip({ slug }));
    const before = await entryCount(grinds);
    const res = await create(kickflip({ slug, category: grinds }));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'A trickipedia entry with this slug already exists.' });
    expect(await entryCount(grinds)).toBe(before);
  });

  it('lets exactly one of two parallel creates with the same slug through', async () => {
    const slug = `race-${tag()}`;
    const category = await createCategory(api, admin, { name: `Race ${tag()}` });
    const answers = await Promise.all([1, 2].map(() => create(kickflip({ slug, category: category.slug }))));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(await api.db((db) => db.collection('trickipedia').countDocuments({ slug }))).toBe(1);
    expect(await entryCount(category.slug)).toBe(1);
  });

  it('replaces every mutable field on PUT: left-out optionals go, the slug follows the new name', async () => {
    const created = await (await create(kickflip())).json<any>();
    const replacement = { name: 'Heelflip', sport: 'skateboarding', category: grinds, description: 'Heel flick.' };
    const [flipsBefore, grindsBefore] = [await entryCount(flips), await entryCount(grinds)];
    const res = await call(api, 'PUT', `/api/trickipedia/${created._id}`, { as: admin, json: replacement });
    expect(res.status).toBe(200);
    const replaced = await res.json<any>();
    expect(replaced).toEqual({
      ...replacement,
      _id: created._id,
      slug: 'heelflip',
      aliases: [],
      createdAt: created.createdAt,
      updatedAt: expect.any(String),
    });
    expect(replaced.updatedAt > created.updatedAt).toBe(true);
    expect(await (await call(api, 'GET', `/api/trickipedia/${created._id}`)).json()).toEqual(replaced);
    expect([await entryCount(flips), await entryCount(grinds)]).toEqual([flipsBefore - 1, grindsBefore + 1]);

    const again = await call(api, 'PUT', `/api/trickipedia/${created._id}`, { as: admin, json: replacement });
    const { updatedAt: _first, ...first } = replaced;
    const { updatedAt: _second, ...second } = await again.json<any>();
    expect(second).toEqual(first);
    expect(await entryCount(grinds)).toBe(grindsBefore + 1);
  });

  it('answers a PUT of an unknown entry with 404, onto a taken slug with 409, to an unknown category with 400', async () => {
    const before = await entryCount(flips);
    const unknown = await call(api, 'PUT', `/api/trickipedia/${new ObjectId().toHexString()}`, {
      as: admin,
      json: kickflip(),
    });
    expect(unknown.status).toBe(404);
    const [one, two] = [await (await create(kickflip())).json<any>(), await (await create(kickflip())).json<any>()];
    const clash = await call(api, 'PUT', `/api/trickipedia/${two._id}`, {
      as: admin,
      json: kickflip({ slug: one.slug }),
    });
    expect(clash.status).toBe(409);
    const nowhere = await call(api, 'PUT', `/api/trickipedia/${two._id}`, {
      as: admin,
      json: kickflip({ category: 'gone' }),
    });
    expect(await refusedFields(nowhere)).toEqual(['category']);
    expect(await entryCount(flips)).toBe(before + 2);
  });

  it('deletes an entry once, giving back its category', async () => {
    const created = await (await create(kickflip())).json<any>();
    const before = await entryCount(flips);
    const res = await call(api, 'DELETE', `/api/trickipedia/${created._id}`, { as: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true, id: created._id });
    expect(await entryCount(flips)).toBe(before - 1);
    expect((await call(api, 'DELETE', `/api/trickipedia/${created._id}`, { as: admin })).status).toBe(404);
    expect((await call(api, 'GET', `/api/trickipedia/${created._id}`)).status).toBe(404);
  });
});

describe('trickipedia search', () => {
  const marker = tag();
  beforeAll(async () => {
    const add = (name: string, sport: string, category: string, aliases: string[] = []) =>
      create({ name: `${name} ${marker}`, sport, category, description: 'Searchable.', aliases });
    await add('Tailslide', 'skateboarding', grinds, [`Tail Slide ${marker}`]);
    await add('Boardslide', 'snowboarding', grinds);
    await add('Treflip', 'skateboarding', flips, [`360 Flip ${marker}`]);
    await add('Barspin', 'bmx', flips);
    await add('Tail whip', 'bmx', flips);
  });
  const names = async (query: string) =>
    (await everyPage<any>(api, `/api/trickipedia?${query}`, 100)).flat().map((entry) => entry.name.split(' ')[0]);

  it('matches q against names and aliases, case-insensitively', async () => {
    expect(await names(`q=TAIL`)).toEqual(expect.arrayContaining(['Tailslide', 'Tail']));
    expect((await names(`q=${marker.toUpperCase()}`)).sort()).toEqual(
      ['Barspin', 'Boardslide', 'Tail', 'Tailslide', 'Treflip'].sort(),
    );
    expect(await names(`q=360%20flip%20${marker}`)).toEqual(['Treflip']);
  });

  it('takes q literally, so regex characters match only themselves', async () => {
    expect(await names(`q=.*`)).toEqual([]);
  });

  it('filters by sport and by category exactly, alone and together', async () => {
    expect((await names(`q=${marker}&sport=bmx`)).sort()).toEqual(['Barspin', 'Tail']);
    expect((await names(`q=${marker}&category=grinds`)).sort()).toEqual(['Boardslide', 'Tailslide']);
    expect(await names(`q=${marker}&sport=skateboarding&category=flips`)).toEqual(['Treflip']);
    expect(await names(`q=${marker}&category=grind`)).toEqual([]);
  });

  it('pages through every match in slug order without repeats', async () => {
    const pages = await everyPage<any>(api, `/api/trickipedia?q=${marker}`, 2);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    const slugs = pages.flat().map((entry) => entry.slug);
    expect(slugs).toEqual([...new Set(slugs)].sort());
  });

  it('refuses an unknown sport, a malformed category and a cursor it never gave', async () => {
    expect(await refusedFields(await call(api, 'GET', '/api/trickipedia?sport=surfing'))).toEqual(['sport']);
    expect(await refusedFields(await call(api, 'GET', '/api/trickipedia?category=Not%20A%20Slug'))).toEqual([
      'category',
    ]);
    expect(await refusedFields(await call(api, 'GET', '/api/trickipedia?cursor=bm9wZQ'))).toEqual(['cursor']);
  });
});

const entryBody = { name: 'Access table trick', sport: 'bmx', category: 'access', description: 'Never stored.' };
describeAccessChecks(api, [
  { method: 'POST', path: '/api/trickipedia', check: 'admin', json: entryBody },
  { method: 'PUT', path: '/api/trickipedia/:id', check: 'admin', json: entryBody },
  { method: 'DELETE', path: '/api/trickipedia/:id', check: 'admin' },
]);
