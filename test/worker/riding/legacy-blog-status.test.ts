import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { createApi } from '../../support/worker-api';

// Blog posts written before posts had a status were public: stored without one (or with null) they are published;
// any status the service does not know is a draft, so nothing unknown reaches the public.

const api = createApi('legacy-riding-blog-status');
let admin: TestAccount;
let rider: TestAccount;
const [noStatus, nullStatus, oddStatus, published] = [new ObjectId(), new ObjectId(), new ObjectId(), new ObjectId()];
beforeAll(async () => {
  admin = await registerAdmin(api);
  rider = await register(api);
  await api.fetch('/api/health');
  const post = (_id: ObjectId, fields: object) => ({
    _id,
    title: `Post ${_id}`,
    slug: `post-${_id}`,
    body: 'Text',
    ...fields,
  });
  await api.db((db) =>
    db.collection('blog').insertMany([
      post(noStatus, { createdAt: new Date('2015-05-01') }),
      post(nullStatus, { status: null, createdAt: '2016-05-01T00:00:00Z', publishedAt: '2016-05-02T00:00:00Z' }),
      post(oddStatus, { status: 'archived', createdAt: new Date('2017-05-01') }),
      post(published, {
        status: 'published',
        publishedAt: new Date('2018-05-01'),
        createdAt: new Date('2018-04-01'),
      }),
    ]),
  );
});

const ids = (pages: { _id: string }[][]) => pages.flat().map((item) => item._id);

describe('blog posts stored without a status', () => {
  it('are listed as published, newest first, on every page size', async () => {
    const expected = [published, nullStatus, noStatus].map(String);
    expect(ids(await everyPage(api, '/api/blog', 10))).toEqual(expected);
    expect(ids(await everyPage(api, '/api/blog', 1))).toEqual(expected);
  });

  it('are shown to anyone as published; a post with an unknown status only to admins, as a draft', async () => {
    const shown = await call(api, 'GET', `/api/blog/${noStatus}`, { as: rider });
    expect(shown.status).toBe(200);
    expect(await shown.json<any>()).toMatchObject({ status: 'published' });
    expect((await call(api, 'GET', `/api/blog/${oddStatus}`, { as: rider })).status).toBe(404);
    const draft = await call(api, 'GET', `/api/blog/${oddStatus}`, { as: admin });
    expect(await draft.json<any>()).toMatchObject({ status: 'draft' });
    expect(ids(await everyPage(api, '/api/blog?status=draft', 1, admin))).toEqual([String(oddStatus)]);
  });
});
