import { SignJWT } from 'jose';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { registerAdmin } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('legacy-growth');

describe('analytics exclusion over accounts stored by older code', () => {
  it('gives control to an account whose bot or exclusion flag was stored as "true" or 1', async () => {
    const admin = await registerAdmin(api);
    const key = `legacy_${crypto.randomUUID().slice(0, 8).replace(/-/g, '')}`;
    const defined = await api.fetch('/api/admin/experiments', {
      method: 'POST',
      headers: { 'x-auth-token': admin.token },
      json: {
        key,
        variants: [
          { key: 'control', weight: 1 },
          { key: 'treatment', weight: 99 },
        ],
        platforms: ['ios'],
        primaryMetric: 'progression',
        status: 'running',
      },
    });
    expect(defined.status).toBe(201);
    for (const flags of [{ isBot: 'true' }, { analyticsExcluded: 1 }]) {
      const id = new ObjectId();
      await api.db((db) => db.collection('users').insertOne({ _id: id, email: `${id}@example.com`, ...flags }));
      const token = await new SignJWT({ _id: id.toHexString(), name: null, email: `${id}@example.com` })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(api.env.JWT_SECRET!));
      for (const device of ['d-1', 'd-2', 'd-3']) {
        const res = await api.fetch(`/api/experiments/assignments?installationId=${device}&platform=ios`, {
          headers: { 'x-auth-token': token },
        });
        expect(res.status).toBe(200);
        expect((await res.json<{ assignments: Record<string, string> }>()).assignments[key]).toBe('control');
      }
    }
  });
});
