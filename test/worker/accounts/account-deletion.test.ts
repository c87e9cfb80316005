import { type Db, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { COLLECTION_NAMES, PERSONAL_DATA } from '../../../worker/data';
import { register, registerAdmin } from '../../support/accounts';
import { seedReadyExport } from '../../support/data-exports';
import { seedPersonalData } from '../../support/personal-data';
import { LONG_TEST_MS } from '../../support/time-limits';
import { createApi } from '../../support/worker-api';

const api = createApi('account-deletion');

/** Every document in every collection whose JSON mentions the id. */
async function traces(db: Db, id: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of COLLECTION_NAMES) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      if (JSON.stringify(doc).includes(id)) found.push(`${name}:${String(doc._id)}`);
    }
  }
  return found;
}

describe('account deletion', () => {
  it(
    'removes the account and everything personal to it, and nothing of anyone else',
    async () => {
      const [doomed, bystander] = [await register(api), await register(api)];
      await api.db(async (db) => {
        await seedPersonalData(db, new ObjectId(doomed._id));
        await seedPersonalData(db, new ObjectId(bystander._id));
      });
      // A data export as the service stores it, with its file: the rules above seed only collections they name.
      const [doomedExport, keptExport] = [
        await seedReadyExport(api, doomed._id),
        await seedReadyExport(api, bystander._id),
      ];
      expect((await api.db((db) => traces(db, doomed._id))).length).toBeGreaterThan(PERSONAL_DATA.length);

      const res = await api.fetch(`/api/users/${doomed._id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${doomed.token}` },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ deleted: true, userId: doomed._id });

      expect(await api.db((db) => traces(db, doomed._id))).toEqual([]);
      expect(await api.env.MEDIA.head(doomedExport.key)).toBeNull();
      expect(await api.env.MEDIA.head(keptExport.key)).not.toBeNull();
      const kept = await api.db((db) => traces(db, bystander._id));
      expect(kept.length).toBeGreaterThan(PERSONAL_DATA.length);
      const spotsSeeded = 2 * PERSONAL_DATA.filter((cleanup) => cleanup.collection === 'spots').length;
      expect(await api.db((db) => db.collection('spots').countDocuments({ 'stays.name': 'kept?' }))).toBe(spotsSeeded);
    },
    LONG_TEST_MS,
  );

  it('lets an admin delete any account, and then the token no longer works', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    const res = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    const signIn = await api.fetch('/api/auth', {
      method: 'POST',
      json: { email: rider.email, password: rider.password },
    });
    expect(signIn.status).toBe(400);
    const me = await api.fetch('/api/users/me', { headers: { 'x-auth-token': rider.token } });
    expect({ status: me.status, body: await me.text() }).toEqual({ status: 400, body: 'Invalid token.' });
  });

  it('refuses to delete someone else', async () => {
    const [mine, theirs] = [await register(api), await register(api)];
    const res = await api.fetch(`/api/users/${theirs._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${mine.token}` },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('Access denied.');
    expect(await api.db((db) => db.collection('users').countDocuments({ _id: new ObjectId(theirs._id) }))).toBe(1);
  });
});
