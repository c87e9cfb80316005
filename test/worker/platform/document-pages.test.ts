import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { documentPages } from '../../../worker/platform/db/document-pages';
import { createApi } from '../../support/worker-api';

const api = createApi('document-pages');

describe('documentPages', () => {
  it('reads every selected document once, ids of any stored type, a page at a time, over the gateway', async () => {
    const ids: unknown[] = [new ObjectId(), new ObjectId(), new ObjectId(), 'legacy-a', 'legacy-b', 7, new ObjectId()];
    await api.db((db) =>
      db
        .collection('feed_posts')
        .insertMany([
          ...ids.map((_id) => ({ _id: _id as ObjectId, kind: 'mine' })),
          { _id: new ObjectId(), kind: 'theirs' },
        ]),
    );
    const { store } = openRequestConnection({ ...api.env, DB_ACCESS: 'gateway' });
    for (const pageSize of [2, 3, 100]) {
      const pages: unknown[][] = [];
      for await (const page of documentPages(store.db.collection('feed_posts'), { kind: 'mine' }, { pageSize }))
        pages.push(page.map((doc) => doc._id));
      expect(pages.every((page) => page.length <= pageSize)).toBe(true);
      expect(pages.flat().map(String).sort()).toEqual(ids.map(String).sort());
    }
  });
});
