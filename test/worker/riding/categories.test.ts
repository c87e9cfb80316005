import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { registerAdmin, type TestAccount } from '../../support/accounts';
import { call, createCategory, everyPage, refusedFields } from '../../support/content';
import { createApi } from '../../support/worker-api';

const api = createApi('categories');
let admin: TestAccount;
beforeAll(async () => {
  admin = await registerAdmin(api);
});

const tag = () => crypto.randomUUID().slice(0, 8);
const entry = (category: string, name = `Trick ${tag()}`) => ({
  name,
  sport: 'skateboarding',
  category,
  description: 'A trick.',
});

describe('categories', () => {
  it('creates a category with a slug derived from its name, and anyone can list it', async () => {
    const name = `Flip Tricks ${tag()}`;
    const res = await call(api, 'POST', '/api/categories', { as: admin, json: { name, sport: 'skateboarding' } });
    expect(res.status).toBe(201);
    const created = await res.json<any>();
    expect(created).toMatchObject({ name, slug: name.toLowerCase().replace(/ /g, '-'), sport: 'skateboarding' });
    expect(created.entryCount).toBe(0);
    expect(created.createdAt).toBe(created.updatedAt);

    const listed = (await everyPage<any>(api, '/api/categories', 100)).flat();
    expect(listed.find((category) => category._id === created._id)).toEqual(created);
  });

  it('lists in slug order, page by page, and filters by sport', async () => {
    const prefix = `order-${tag()}`;
    for (const letter of ['c', 'a', 'd', 'b']) {
      await createCategory(api, admin, { name: `${prefix} ${letter}`, sport: 'wakeboarding' });
    }
    const pages = await everyPage<any>(api, '/api/categories?sport=wakeboarding', 3);
    const slugs = pages.flat().map((category) => category.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs.filter((slug) => slug.startsWith(prefix))).toEqual(['a', 'b', 'c', 'd'].map((l) => `${prefix}-${l}`));
    expect(pages.flat().every((category) => category.sport === 'wakeboarding')).toBe(true);
    expect(pages[0]).toHaveLength(3);
  });

  it('refuses a sport outside the taxonomy and a cursor it never gave', async () => {
    expect(await refusedFields(await call(api, 'GET', '/api/categories?sport=surfing'))).toEqual(['sport']);
    expect(await refusedFields(await call(api, 'GET', '/api/categories?cursor=%24%24'))).toEqual(['cursor']);
  });

  it.each([
    ['an empty name', { name: '  ' }, 'name'],
    ['a name over the limit', { name: 'x'.repeat(101) }, 'name'],
    ['a slug with capitals', { name: 'Grabs', slug: 'Grabs' }, 'slug'],
    ['a slug with a double hyphen', { name: 'Grabs', slug: 'big--grabs' }, 'slug'],
    ['a name no slug can be derived from, and no slug', { name: '🛹🛹' }, 'slug'],
    ['an unknown sport', { name: 'Grabs', sport: 'surfing' }, 'sport'],
    ['an unknown field', { name: 'Grabs', colour: 'red' }, 'request body'],
  ])('refuses %s with a 400 naming the field', async (_rule, json, field) => {
    const res = await call(api, 'POST', '/api/categories', { as: admin, json });
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toContain(field);
  });

  it('refuses a taken slug with 409', async () => {
    const slug = `taken-${tag()}`;
    await createCategory(api, admin, { name: 'First', slug });
    const res = await call(api, 'POST', '/api/categories', { as: admin, json: { name: 'Second', slug } });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'A category with this slug already exists.' });
  });

  it('lets exactly one of two parallel creates with the same slug through', async () => {
    const slug = `race-${tag()}`;
    const answers = await Promise.all(
      [1, 2].map((n) => call(api, 'POST', '/api/categories', { as: admin, json: { name: `Race ${n}`, slug } })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(await api.db((db) => db.collection('categories').countDocuments({ slug }))).toBe(1);
  });

  it('merges a PATCH: what is sent changes, the rest stays, null removes the sport', async () => {
    const created = await createCategory(api, admin, { name: 'Spins', slug: `spins-${tag()}`, sport: 'snowboarding' });
    const renamed = await call(api, 'PATCH', `/api/categories/${created._id}`, {
      as: admin,
      json: { name: 'Rotations' },
    });
    expect(renamed.status).toBe(200);
    const after = await renamed.json<any>();
    expect(after).toMatchObject({ name: 'Rotations', slug: created.slug, sport: 'snowboarding' });
    expect(after.updatedAt > created.updatedAt).toBe(true);

    const cleared = await call(api, 'PATCH', `/api/categories/${created._id}`, { as: admin, json: { sport: null } });
    expect(await cleared.json()).not.toHaveProperty('sport');
  });

  it('answers a PATCH or DELETE of an unknown category with 404, and a taken slug with 409', async () => {
    const unknown = `/api/categories/${new ObjectId().toHexString()}`;
    expect((await call(api, 'PATCH', unknown, { as: admin, json: { name: 'X' } })).status).toBe(404);
    expect((await call(api, 'DELETE', unknown, { as: admin })).status).toBe(404);
    const [one, two] = [
      await createCategory(api, admin, { name: `One ${tag()}` }),
      await createCategory(api, admin, { name: `Two ${tag()}` }),
    ];
    const clash = await call(api, 'PATCH', `/api/categories/${two._id}`, { as: admin, json: { slug: one.slug } });
    expect(clash.status).toBe(409);
  });

  it('refuses to delete a category entries reference, saying how many, and deletes it once they are gone', async () => {
    const category = await createCategory(api, admin, { name: `Grinds ${tag()}` });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await call(api, 'POST', '/api/trickipedia', { as: admin, json: entry(category.slug) });
      ids.push((await res.json<any>())._id);
    }
    const refused = await call(api, 'DELETE', `/api/categories/${category._id}`, { as: admin });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: 'The category is referenced by 2 trickipedia entries; move or delete them first.',
    });

    for (const id of ids) await call(api, 'DELETE', `/api/trickipedia/${id}`, { as: admin });
    const deleted = await call(api, 'DELETE', `/api/categories/${category._id}`, { as: admin });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: true, id: category._id });
    expect((await call(api, 'DELETE', `/api/categories/${category._id}`, { as: admin })).status).toBe(404);
  });

  it('keeps the slug of a category entries reference, and changes it once none does', async () => {
    const category = await createCategory(api, admin, { name: `Manuals ${tag()}` });
    const created = await call(api, 'POST', '/api/trickipedia', { as: admin, json: entry(category.slug) });
    const newSlug = `renamed-${tag()}`;
    const refused = await call(api, 'PATCH', `/api/categories/${category._id}`, { as: admin, json: { slug: newSlug } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: "The category's slug cannot change while 1 trickipedia entry reference it.",
    });
    const sameSlug = await call(api, 'PATCH', `/api/categories/${category._id}`, {
      as: admin,
      json: { slug: category.slug, name: 'Manuals' },
    });
    expect(sameSlug.status).toBe(200);

    await call(api, 'DELETE', `/api/trickipedia/${(await created.json<any>())._id}`, { as: admin });
    const moved = await call(api, 'PATCH', `/api/categories/${category._id}`, { as: admin, json: { slug: newSlug } });
    expect(moved.status).toBe(200);
    expect((await moved.json<any>()).slug).toBe(newSlug);
  });

  it('never leaves an entry pointing at a deleted category when the delete races the entry', async () => {
    for (let round = 0; round < 4; round++) {
      const category = await createCategory(api, admin, { name: `Racing ${tag()}` });
      const [create, remove] = await Promise.all([
        call(api, 'POST', '/api/trickipedia', { as: admin, json: entry(category.slug) }),
        call(api, 'DELETE', `/api/categories/${category._id}`, { as: admin }),
      ]);
      // Either the entry held the category first (201, then 409), or the delete won (200, then 400).
      expect([
        [201, 409],
        [400, 200],
      ]).toContainEqual([create.status, remove.status]);
      const [categories, entries] = await api.db(async (db) => [
        await db.collection('categories').countDocuments({ slug: category.slug }),
        await db.collection('trickipedia').countDocuments({ category: category.slug }),
      ]);
      expect(entries === 0 || categories === 1).toBe(true);
    }
  });
});

describeAccessChecks(api, [
  { method: 'POST', path: '/api/categories', check: 'admin', json: { name: 'Access table category' } },
  { method: 'PATCH', path: '/api/categories/:id', check: 'admin', json: { name: 'Renamed by the access table' } },
  { method: 'DELETE', path: '/api/categories/:id', check: 'admin' },
]);
