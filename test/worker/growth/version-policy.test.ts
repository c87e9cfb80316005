import { createLocalJWKSet, jwtVerify } from 'jose';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { describeAccessChecks } from '../../support/access-checks';
import { registerAdmin, type TestAccount } from '../../support/accounts';
import { apiDocument, createApi } from '../../support/worker-api';

const api = createApi('version-policy');

const HOUR = 60 * 60 * 1000;
const basePolicy = {
  latestVersion: '2.4.0',
  minimumSupportedVersion: '1.10.0',
  promptMode: 'required',
  title: 'Update available',
  message: 'A new version with better spot maps is out.',
  storeUrl: 'https://apps.apple.com/app/id000000001',
  effectiveAt: new Date(Date.now() - 72 * HOUR).toISOString(),
  gracePeriodHours: 24,
  reason: 'spring release',
};

// Each test publishes for its own platform database: ios and android are shared within this file's database.
async function publish(admin: TestAccount, platform: 'ios' | 'android', changes: Partial<typeof basePolicy> = {}) {
  return api.fetch(`/api/admin/mobile/version-policy/${platform}`, {
    method: 'PUT',
    headers: { 'x-auth-token': admin.token },
    json: { ...basePolicy, ...changes },
  });
}

const stateOf = async (platform: string, version: string) => {
  const res = await api.fetch(`/api/mobile/version-policy?platform=${platform}&version=${version}&build=77`);
  expect(res.status).toBe(200);
  return (await res.json<{ evaluation: { state: string; build: number } }>()).evaluation;
};

describe('GET /api/mobile/version-policy', () => {
  it('answers 404 for a platform with no policy yet', async () => {
    const fresh = createApi('version-policy-empty');
    expect((await fresh.fetch('/api/mobile/version-policy?platform=android')).status).toBe(404);
  });

  it('serves the published policy without auth, cacheable, with every field of the interface spec', async () => {
    const admin = await registerAdmin(api);
    expect((await publish(admin, 'ios')).status).toBe(200);
    const res = await api.fetch('/api/mobile/version-policy?platform=ios');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${LIMITS.versionPolicy.cacheSeconds}`);
    const { reason: _, ...fields } = basePolicy;
    expect(await res.json()).toMatchObject({ ...fields, platform: 'ios', policyRevision: expect.any(Number) });
  });

  it('evaluates a version by the transition rows: current, optional, required', async () => {
    const admin = await registerAdmin(api);
    await publish(admin, 'android');
    expect(await stateOf('android', '2.4.0')).toMatchObject({ state: 'current', build: 77 });
    expect((await stateOf('android', '2.5.0')).state).toBe('current');
    expect((await stateOf('android', '2.4.0-rc.1')).state).toBe('optional');
    expect((await stateOf('android', '1.10.0')).state).toBe('optional');
    expect((await stateOf('android', '1.9.9')).state).toBe('required');
  });

  it('keeps a below-minimum version optional while effectiveAt plus the grace period is ahead', async () => {
    const admin = await registerAdmin(api);
    await publish(admin, 'android', { effectiveAt: new Date(Date.now() - HOUR).toISOString(), gracePeriodHours: 2 });
    expect((await stateOf('android', '1.0.0')).state).toBe('optional');
    await publish(admin, 'android', { effectiveAt: new Date(Date.now() + HOUR).toISOString(), gracePeriodHours: 0 });
    expect((await stateOf('android', '1.0.0')).state).toBe('optional');
  });

  it('refuses a version that is not semantic with 400 naming the field', async () => {
    const res = await api.fetch('/api/mobile/version-policy?platform=ios&version=1.2');
    expect(res.status).toBe(400);
    expect((await res.json<{ details: { field: string }[] }>()).details[0]?.field).toBe('version');
    expect((await api.fetch('/api/mobile/version-policy?platform=windows')).status).toBe(400);
  });
});

describe('PUT /api/admin/mobile/version-policy/{platform}', () => {
  it('refuses a minimum above the latest version (1.10.0 is above 1.9.0)', async () => {
    const admin = await registerAdmin(api);
    const res = await publish(admin, 'ios', { latestVersion: '1.9.0', minimumSupportedVersion: '1.10.0' });
    expect(res.status).toBe(400);
    expect((await res.json<{ details: { field: string }[] }>()).details[0]?.field).toBe('minimumSupportedVersion');
  });

  it('requires a reason', async () => {
    const admin = await registerAdmin(api);
    const { reason: _, ...noReason } = basePolicy;
    const res = await api.fetch('/api/admin/mobile/version-policy/ios', {
      method: 'PUT',
      headers: { 'x-auth-token': admin.token },
      json: noReason,
    });
    expect(res.status).toBe(400);
  });

  it('gives concurrent changes distinct revisions and one history row each', async () => {
    const fresh = createApi('version-policy-race');
    const admin = await registerAdmin(fresh);
    const changes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fresh.fetch('/api/admin/mobile/version-policy/android', {
          method: 'PUT',
          headers: { 'x-auth-token': admin.token },
          json: { ...basePolicy, reason: `change ${i}` },
        }),
      ),
    );
    const revisions = await Promise.all(
      changes.map(async (res) => (await res.json<{ policyRevision: number }>()).policyRevision),
    );
    expect(revisions.sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const history = await fresh.db((db) => db.collection('mobile_version_policy_history').find().toArray());
    expect(history.map((row) => row.policyRevision).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const current = await fresh.fetch('/api/mobile/version-policy?platform=android');
    expect((await current.json<{ policyRevision: number }>()).policyRevision).toBe(6);
  });
});

describe('GET /api/admin/mobile/version-policy/{platform}/history', () => {
  it('lists each change with reason, actor and time, newest first, and never rewrites an earlier row', async () => {
    const fresh = createApi('version-policy-history');
    const admin = await registerAdmin(fresh);
    const put = (changes: Partial<typeof basePolicy>) =>
      fresh.fetch('/api/admin/mobile/version-policy/ios', {
        method: 'PUT',
        headers: { 'x-auth-token': admin.token },
        json: { ...basePolicy, ...changes },
      });
    await put({ reason: 'first' });
    const firstRow = await fresh.db((db) =>
      db.collection('mobile_version_policy_history').findOne({ reason: 'first' }),
    );
    await put({ reason: 'emergency block', minimumSupportedVersion: '2.4.0' });
    await put({ reason: 'third', latestVersion: '2.5.0' });

    const page1 = await fresh.fetch('/api/admin/mobile/version-policy/ios/history?limit=2', {
      headers: { 'x-auth-token': admin.token },
    });
    const body = await page1.json<{ items: Record<string, unknown>[]; nextCursor: string }>();
    expect(body.items.map((row) => [row.policyRevision, row.reason])).toEqual([
      [3, 'third'],
      [2, 'emergency block'],
    ]);
    expect(body.items[1]).toMatchObject({
      actorId: admin._id,
      changedAt: expect.any(String),
      policy: { minimumSupportedVersion: '2.4.0' },
    });
    const page2 = await fresh.fetch(`/api/admin/mobile/version-policy/ios/history?limit=2&cursor=${body.nextCursor}`, {
      headers: { 'x-auth-token': admin.token },
    });
    const rest = await page2.json<{ items: { reason: string }[]; nextCursor: null }>();
    expect(rest).toMatchObject({ items: [{ reason: 'first' }], nextCursor: null });
    const firstNow = await fresh.db((db) =>
      db.collection('mobile_version_policy_history').findOne({ reason: 'first' }),
    );
    expect(firstNow).toEqual(firstRow);
  });

  it('has no route that changes or removes a history row', async () => {
    const doc = await apiDocument(api.env);
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    const history = Object.entries(paths).filter(
      ([path]) => path.includes('/history') && path.includes('version-policy'),
    );
    expect(history.map(([path, ops]) => [path, Object.keys(ops)])).toEqual([
      ['/api/admin/mobile/version-policy/{platform}/history', ['get']],
    ]);
  });
});

describe('signed policy', () => {
  it('verifies with the published key set and expires after the documented lifetime', async () => {
    const admin = await registerAdmin(api);
    await publish(admin, 'ios', { reason: 'signed' });
    const res = await api.fetch('/api/mobile/version-policy/signed?platform=ios&version=1.0.0');
    expect(res.status).toBe(200);
    const body = await res.json<{ policy: object; signature: string; expiresAt: string; evaluation: object }>();
    const jwks = await (await api.fetch('/api/mobile/version-policy/jwks.json')).json<
      Parameters<typeof createLocalJWKSet>[0]
    >();
    const { payload, protectedHeader } = await jwtVerify(body.signature, createLocalJWKSet(jwks), {
      algorithms: ['ES256'],
    });
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload.policy).toEqual(body.policy);
    expect(payload.exp! - payload.iat!).toBe(LIMITS.versionPolicy.signedTtlSeconds);
    expect(new Date(body.expiresAt).getTime()).toBe(payload.exp! * 1000);
    expect(body.evaluation).toMatchObject({ state: 'required' });
  });

  it('fails verification when the policy in the signature is altered', async () => {
    const admin = await registerAdmin(api);
    await publish(admin, 'ios', { reason: 'tamper check' });
    const { signature } = await (await api.fetch('/api/mobile/version-policy/signed?platform=ios')).json<{
      signature: string;
    }>();
    const [header, payload, sig] = signature.split('.');
    const claims = JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/')));
    claims.policy.minimumSupportedVersion = '0.0.1';
    const forged = `${header}.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.${sig}`;
    const jwks = await (await api.fetch('/api/mobile/version-policy/jwks.json')).json<
      Parameters<typeof createLocalJWKSet>[0]
    >();
    await expect(jwtVerify(forged, createLocalJWKSet(jwks))).rejects.toThrow();
  });

  it('answers 500 naming POLICY_SIGNING_KEY when it is missing, for the signed form only', async () => {
    const unsigned = createApi('version-policy-nokey', { POLICY_SIGNING_KEY: '' });
    const admin = await registerAdmin(unsigned);
    await unsigned.fetch('/api/admin/mobile/version-policy/ios', {
      method: 'PUT',
      headers: { 'x-auth-token': admin.token },
      json: basePolicy,
    });
    expect((await unsigned.fetch('/api/mobile/version-policy?platform=ios')).status).toBe(200);
    for (const path of ['/api/mobile/version-policy/signed?platform=ios', '/api/mobile/version-policy/jwks.json']) {
      const res = await unsigned.fetch(path);
      expect(res.status).toBe(500);
      expect((await res.json<{ error: string }>()).error).toContain('POLICY_SIGNING_KEY');
    }
  });
});

describe('stored shape', () => {
  it('records the acting admin as an ObjectId', async () => {
    const admin = await registerAdmin(api);
    await publish(admin, 'android', { reason: 'actor shape' });
    const row = await api.db((db) => db.collection('mobile_version_policy_history').findOne({ reason: 'actor shape' }));
    expect(row?.actorId).toEqual(new ObjectId(admin._id));
  });
});

describeAccessChecks(api, [
  { method: 'PUT', path: '/api/admin/mobile/version-policy/ios', check: 'admin', json: basePolicy },
  { method: 'GET', path: '/api/admin/mobile/version-policy/ios/history', check: 'admin' },
]);
