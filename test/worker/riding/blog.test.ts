import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call, everyPage, refusedFields } from '../../support/content';
import { createApi } from '../../support/worker-api';

const api = createApi('blog');
let admin: TestAccount;
let rider: TestAccount;
beforeAll(async () => {
  admin = await registerAdmin(api);
  rider = await register(api);
});

const tag = () => crypto.randomUUID().slice(0, 8);
const post = (overrides: Record<string, unknown> = {}) => ({
  title: `Spring session ${tag()}`,
  body: '# Spring\n\nThe parks are open again.',
  ...overrides,
});
const write = async (overrides: Record<string, unknown> = {}) => {
  const res = await call(api, 'POST', '/api/blog', { as: admin, json: post(overrides) });
  if (res.status !== 201) throw new Error(`post not written: ${res.status} ${await res.text()}`);
  return res.json<any>();
};
const patch = (id: string, json: unknown) => call(api, 'PATCH', `/api/blog/${id}`, { as: admin, json });

describe('blog posts', () => {
  it('writes a draft by default, with a derived slug and the admin as author, and hides it from the public', async () => {
    const res = await call(api, 'POST', '/api/blog', {
      as: admin,
      json: { title: 'Draft: Winter Recap', body: 'Soon.', tags: ['News', 'news ', 'Snow'] },
    });
    expect(res.status).toBe(201);
    const draft = await res.json<any>();
    expect(draft).toMatchObject({
      title: 'Draft: Winter Recap',
      slug: 'draft-winter-recap',
      status: 'draft',
      tags: ['news', 'snow'],
      authorId: admin._id,
    });
    expect(draft).not.toHaveProperty('publishedAt');

    expect((await call(api, 'GET', `/api/blog/${draft._id}`)).status).toBe(404);
    expect((await call(api, 'GET', `/api/blog/${draft._id}`, { as: rider })).status).toBe(404);
    const asAdmin = await call(api, 'GET', `/api/blog/${draft._id}`, { as: admin });
    expect(await asAdmin.json()).toEqual(draft);
    const publicList = (await everyPage<any>(api, '/api/blog', 100)).flat();
    expect(publicList.map((item) => item._id)).not.toContain(draft._id);
  });

  it('lists drafts only for an admin who asks with status=draft', async () => {
    const draft = await write();
    const drafts = (await everyPage<any>(api, '/api/blog?status=draft', 100, admin)).flat();
    expect(drafts.map((item) => item._id)).toContain(draft._id);
    expect(drafts.every((item) => item.status === 'draft')).toBe(true);

    for (const caller of [undefined, rider]) {
      const refused = await call(api, 'GET', '/api/blog?status=draft', { as: caller });
      expect(refused.status).toBe(403);
    }
  });

  it('refuses a bad token on a public read with 400 "Invalid token.", as the auth check does, and reads none as the public', async () => {
    const published = await write({ status: 'published' });
    const res = await api.fetch(`/api/blog/${published._id}`, { headers: { 'x-auth-token': 'not-a-jwt' } });
    expect([res.status, await res.text()]).toEqual([400, 'Invalid token.']);
    expect((await api.fetch(`/api/blog/${published._id}`)).status).toBe(200);
  });

  it('stamps publishedAt at the first publication only, and a draft again is hidden again', async () => {
    const draft = await write();
    const published = await (await patch(draft._id, { status: 'published' })).json<any>();
    expect(published.status).toBe('published');
    expect(published.publishedAt).toBe(published.updatedAt);
    expect((await call(api, 'GET', `/api/blog/${draft._id}`)).status).toBe(200);

    const unpublished = await (await patch(draft._id, { status: 'draft' })).json<any>();
    expect(unpublished.publishedAt).toBe(published.publishedAt);
    expect((await call(api, 'GET', `/api/blog/${draft._id}`)).status).toBe(404);

    const again = await (await patch(draft._id, { status: 'published' })).json<any>();
    expect(again.publishedAt).toBe(published.publishedAt);
    expect(again.updatedAt > published.updatedAt).toBe(true);
  });

  it('stamps publishedAt once when two publications race', async () => {
    const draft = await write();
    const answers = await Promise.all([1, 2].map(() => patch(draft._id, { status: 'published' })));
    const stamps = await Promise.all(answers.map(async (res) => (await res.json<any>()).publishedAt));
    expect(stamps[0]).toBe(stamps[1]);
  });

  it('writes a published post with publishedAt set', async () => {
    const published = await write({ status: 'published' });
    expect(published.publishedAt).toBe(published.createdAt);
  });

  it('merges a PATCH: what is sent changes, the rest stays, null removes an optional field', async () => {
    const created = await write({ excerpt: 'Short.', coverImageUrl: 'https://img.example.com/a.jpg', tags: ['a'] });
    const res = await patch(created._id, { title: 'Renamed', excerpt: null, tags: ['B', 'b'] });
    expect(res.status).toBe(200);
    const updated = await res.json<any>();
    expect(updated).toEqual({
      ...created,
      title: 'Renamed',
      tags: ['b'],
      excerpt: undefined,
      updatedAt: expect.any(String),
    });
    expect(updated).not.toHaveProperty('excerpt');
    expect(updated.slug).toBe(created.slug);
    expect(updated.updatedAt > created.updatedAt).toBe(true);
  });

  it('answers a PATCH or DELETE of an unknown post with 404', async () => {
    const unknown = new ObjectId().toHexString();
    expect((await patch(unknown, { title: 'X' })).status).toBe(404);
    expect((await patch(unknown, { status: 'published' })).status).toBe(404);
    expect((await call(api, 'DELETE', `/api/blog/${unknown}`, { as: admin })).status).toBe(404);
  });

  it.each([
    ['an empty title', { title: ' ' }, 'title'],
    ['a title over the limit', { title: 'x'.repeat(LIMITS.content.titleMax + 1) }, 'title'],
    ['no body', { body: undefined }, 'body'],
    ['a body over the limit', { body: 'x'.repeat(LIMITS.content.blogBodyMax + 1) }, 'body'],
    ['an empty excerpt', { excerpt: '' }, 'excerpt'],
    ['an excerpt over the limit', { excerpt: 'x'.repeat(LIMITS.content.excerptMax + 1) }, 'excerpt'],
    ['a cover image that is not http(s)', { coverImageUrl: 'data:image/png;base64,AAAA' }, 'coverImageUrl'],
    ['too many tags', { tags: Array.from({ length: LIMITS.content.tagsMax + 1 }, (_, i) => `t${i}`) }, 'tags'],
    ['a tag over the limit', { tags: ['x'.repeat(LIMITS.content.tagMax + 1)] }, 'tags.0'],
    ['an unknown status', { status: 'scheduled' }, 'status'],
    ['a malformed slug', { slug: 'Spring Session' }, 'slug'],
    ['a title no slug can be derived from, and no slug', { title: '🏂 ❄️' }, 'slug'],
    ['an author in the body', { authorId: new ObjectId().toHexString() }, 'request body'],
  ])('refuses %s with a 400 naming the field', async (_rule, overrides, field) => {
    const res = await call(api, 'POST', '/api/blog', { as: admin, json: post(overrides) });
    expect(res.status).toBe(400);
    expect(await refusedFields(res)).toEqual([field]);
  });

  it('refuses the same rules on PATCH', async () => {
    const created = await write();
    const res = await patch(created._id, { title: '', coverImageUrl: 'javascript:alert(1)', status: 'live' });
    expect(res.status).toBe(400);
    expect((await refusedFields(res)).sort()).toEqual(['coverImageUrl', 'status', 'title']);
  });

  it('refuses a taken slug with 409, on POST and on PATCH', async () => {
    const first = await write();
    const second = await write();
    const res = await call(api, 'POST', '/api/blog', { as: admin, json: post({ slug: first.slug }) });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'A blog post with this slug already exists.' });
    expect((await patch(second._id, { slug: first.slug })).status).toBe(409);
  });

  it('lets exactly one of two parallel posts with the same slug through', async () => {
    const slug = `race-${tag()}`;
    const answers = await Promise.all(
      [1, 2].map(() => call(api, 'POST', '/api/blog', { as: admin, json: post({ slug }) })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
  });

  it('deletes a post once', async () => {
    const created = await write({ status: 'published' });
    const res = await call(api, 'DELETE', `/api/blog/${created._id}`, { as: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true, id: created._id });
    expect((await call(api, 'GET', `/api/blog/${created._id}`, { as: admin })).status).toBe(404);
    expect((await call(api, 'DELETE', `/api/blog/${created._id}`, { as: admin })).status).toBe(404);
  });

  it("keeps an author's posts when the author's account is deleted, without the author", async () => {
    const author = await registerAdmin(api);
    const res = await call(api, 'POST', '/api/blog', { as: author, json: post({ status: 'published' }) });
    const written = await res.json<any>();
    await api.fetch(`/api/users/${author._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${author.token}` },
    });
    const kept = await (await call(api, 'GET', `/api/blog/${written._id}`)).json<any>();
    expect(kept).toEqual({ ...written, authorId: undefined });
    expect(kept).not.toHaveProperty('authorId');
  });
});

describe('blog list', () => {
  const marker = tag();
  const titles = async (query: string, as?: TestAccount) =>
    (await everyPage<any>(api, `/api/blog?${query}`, 100, as)).flat().map((item) => item.title.split(' ')[0]);
  beforeAll(async () => {
    const older = await write({ title: `Older ${marker}`, status: 'published', tags: ['park'] });
    await write({ title: `Hidden ${marker}`, tags: ['park'] });
    const later = await write({ title: `Later ${marker}` });
    await write({ title: `Newer ${marker}`, status: 'published', tags: ['street'] });
    // Published last though written before "Newer": newest published comes first.
    await patch(later._id, { status: 'published', tags: ['park', 'street'] });
    expect(older.status).toBe('published');
  });

  it('shows the public published posts only, newest published first', async () => {
    expect(await titles(`q=${marker}`)).toEqual(['Later', 'Newer', 'Older']);
  });

  it('pages with a cursor in the same order, without repeats', async () => {
    const pages = await everyPage<any>(api, `/api/blog?q=${marker}`, 1);
    expect(pages.map((page) => page.map((item) => item.title.split(' ')[0]))).toEqual([
      ['Later'],
      ['Newer'],
      ['Older'],
    ]);
  });

  it('matches q against the title, case-insensitively and literally', async () => {
    expect(await titles(`q=older%20${marker.toUpperCase()}`)).toEqual(['Older']);
    expect(await titles('q=.*')).toEqual([]);
  });

  it('filters by tag, case-insensitively, among published posts', async () => {
    expect(await titles(`q=${marker}&tag=PARK`)).toEqual(['Later', 'Older']);
    expect(await titles(`q=${marker}&tag=street`)).toEqual(['Later', 'Newer']);
  });

  it('lists drafts for an admin newest first', async () => {
    expect(await titles(`q=${marker}&status=draft`, admin)).toEqual(['Hidden']);
  });

  it('refuses a cursor it never gave', async () => {
    expect(await refusedFields(await call(api, 'GET', '/api/blog?cursor=WzEsMl0'))).toEqual(['cursor']);
  });
});

const postBody = { title: 'Access table post', body: 'Never stored.' };
describeAccessChecks(api, [
  { method: 'POST', path: '/api/blog', check: 'admin', json: postBody },
  { method: 'PATCH', path: '/api/blog/:id', check: 'admin', json: { title: 'Renamed by the access table' } },
  { method: 'DELETE', path: '/api/blog/:id', check: 'admin' },
]);
