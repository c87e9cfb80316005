import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('client-heartbeat');

const beat = (installationId: string, changes: Record<string, unknown> = {}) => ({
  installationId,
  platform: 'ios',
  appVersion: '1.4.0',
  buildNumber: 140,
  osFamily: 'iOS 18.2',
  deviceFamily: 'iPhone',
  locale: 'en-US',
  timezone: 'Europe/Berlin',
  notificationCapability: 'granted',
  ...changes,
});

const send = (body: object, token?: string) =>
  api.fetch('/api/client-heartbeat', { method: 'POST', json: body, headers: token ? { 'x-auth-token': token } : {} });

const installation = (id: string) =>
  api.db((db) => db.collection('client_installations').findOne({ installationId: id }));
const history = (id: string) =>
  api.db((db) => db.collection('client_version_history').find({ installationId: id }).sort({ heartbeat: 1 }).toArray());

describe('POST /api/client-heartbeat', () => {
  it('records a new installation without a token, with its first version in the history', async () => {
    const id = crypto.randomUUID();
    const res = await send(beat(id));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ installationId: id, linked: false, versionChanged: true });
    expect(await installation(id)).toMatchObject({ appVersion: '1.4.0', buildNumber: 140, heartbeats: 1 });
    expect((await installation(id))?.userId).toBeUndefined();
    expect(await history(id)).toMatchObject([{ fromVersion: null, fromBuild: null, toVersion: '1.4.0', toBuild: 140 }]);
  });

  it('keeps one record per installation and appends only when the version or build changes', async () => {
    const id = crypto.randomUUID();
    await send(beat(id));
    const again = await send(beat(id, { locale: 'de-DE' }));
    expect((await again.json<{ versionChanged: boolean }>()).versionChanged).toBe(false);
    await send(beat(id, { locale: 'de-DE', appVersion: '1.5.0', buildNumber: 150 }));
    await send(beat(id, { locale: 'de-DE', appVersion: '1.5.0', buildNumber: 151 }));
    expect(await api.db((db) => db.collection('client_installations').countDocuments({ installationId: id }))).toBe(1);
    expect(await installation(id)).toMatchObject({
      locale: 'de-DE',
      appVersion: '1.5.0',
      buildNumber: 151,
      heartbeats: 4,
    });
    expect(
      (await history(id)).map((row) => [row.fromVersion, row.fromBuild, row.toVersion, row.toBuild, row.heartbeat]),
    ).toEqual([
      [null, null, '1.4.0', 140, 1],
      ['1.4.0', 140, '1.5.0', 150, 3],
      ['1.5.0', 150, '1.5.0', 151, 4],
    ]);
  });

  it('links the installation and its history to the account of a valid token', async () => {
    const rider = await register(api);
    const id = crypto.randomUUID();
    const res = await send(beat(id), rider.token);
    expect((await res.json<{ linked: boolean }>()).linked).toBe(true);
    expect((await installation(id))?.userId).toEqual(new ObjectId(rider._id));
    expect((await history(id))[0]?.userId).toEqual(new ObjectId(rider._id));
  });

  it('records a heartbeat with a token that does not verify anonymously (auth is optional)', async () => {
    const id = crypto.randomUUID();
    const res = await send(beat(id), 'not-a-jwt');
    expect(res.status).toBe(200);
    expect((await res.json<{ linked: boolean }>()).linked).toBe(false);
    expect((await installation(id))?.userId).toBeUndefined();
  });

  it('keeps the earliest first-seen reported, never one in the future', async () => {
    const id = crypto.randomUUID();
    await send(beat(id, { firstSeenAt: '2026-01-05T10:00:00Z' }));
    await send(beat(id, { firstSeenAt: '2026-02-01T10:00:00Z' }));
    expect((await installation(id))?.firstSeenAt).toEqual(new Date('2026-01-05T10:00:00Z'));
    const later = crypto.randomUUID();
    const before = Date.now();
    await send(beat(later, { firstSeenAt: '2999-01-01T00:00:00Z' }));
    expect((await installation(later))?.firstSeenAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await installation(later))?.firstSeenAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('refuses a version that is not semantic and an unknown time zone, naming each', async () => {
    for (const [changes, field] of [
      [{ appVersion: '1.4' }, 'appVersion'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
    ] as const) {
      const res = await send(beat(crypto.randomUUID(), changes));
      expect(res.status, JSON.stringify(changes)).toBe(400);
      const details = (await res.json<{ details: { field: string; message: string }[] }>()).details;
      expect(JSON.stringify(details)).toContain(field);
    }
  });

  it("takes a reported lastSeenAt but records the server's own time", async () => {
    const id = crypto.randomUUID();
    const before = Date.now();
    for (const lastSeenAt of ['2020-01-01T00:00:00Z', '2999-01-01T00:00:00Z']) {
      const res = await send(beat(id, { lastSeenAt }));
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const seen = (await installation(id))?.lastSeenAt.getTime();
    expect(seen).toBeGreaterThanOrEqual(before - 1000);
    expect(seen).toBeLessThanOrEqual(Date.now());
  });

  it("ignores fields it does not know (a newer app's), storing none of them", async () => {
    const id = crypto.randomUUID();
    const res = await send(beat(id, { batteryLevel: 0.4, heartbeats: 99, userId: new ObjectId().toHexString() }));
    expect(res.status, await res.clone().text()).toBe(200);
    const stored = await installation(id);
    expect(stored).toMatchObject({ appVersion: '1.4.0', heartbeats: 1 });
    expect(stored).not.toHaveProperty('batteryLevel');
    expect(stored?.userId).toBeUndefined();
  });
});

describe('racing heartbeats', () => {
  it('create one record and one history row when a new installation sends many at once', async () => {
    const id = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(beat(id))));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(await api.db((db) => db.collection('client_installations').countDocuments({ installationId: id }))).toBe(1);
    expect((await installation(id))?.heartbeats).toBe(8);
    expect(await history(id)).toHaveLength(1);
  });

  it('leave an unbroken chain of changes when versions alternate concurrently', async () => {
    const id = crypto.randomUUID();
    const versions = ['1.0.0', '1.1.0', '1.0.0', '1.2.0', '1.1.0', '1.2.0', '1.0.0', '1.3.0'];
    await Promise.all(versions.map((appVersion) => send(beat(id, { appVersion }))));
    const rows = await history(id);
    expect(rows[0]?.fromVersion).toBeNull();
    // Each change starts where the previous one ended: nothing lost, nothing counted twice.
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]?.fromVersion).toBe(rows[i - 1]?.toVersion);
    expect(rows.at(-1)?.toVersion).toBe((await installation(id))?.appVersion);
    expect(new Set(rows.map((row) => row.heartbeat)).size).toBe(rows.length);
  });
});

describe('account deletion', () => {
  it("removes the rider's installations and version history", async () => {
    const rider = await register(api);
    const id = crypto.randomUUID();
    await send(beat(id), rider.token);
    await send(beat(id, { appVersion: '2.0.0' }), rider.token);
    const res = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(res.status).toBe(200);
    expect(await installation(id)).toBeNull();
    expect(await history(id)).toEqual([]);
  });

  it("takes the device's anonymous changes from before sign-in too, and the device starts afresh after", async () => {
    const rider = await register(api);
    const id = crypto.randomUUID();
    await send(beat(id)); // the app's first heartbeat, before sign-in
    await send(beat(id, { appVersion: '1.5.0' }), rider.token);
    expect((await history(id)).map((row) => row.userId)).toEqual([new ObjectId(rider._id), new ObjectId(rider._id)]);
    const deleted = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(deleted.status).toBe(200);
    expect(await history(id)).toEqual([]);
    // The same device keeps sending heartbeats: a new record, counted from 1, with its first version logged.
    expect((await send(beat(id, { appVersion: '1.5.0' }))).status).toBe(200);
    expect(await history(id)).toMatchObject([{ heartbeat: 1, fromVersion: null, toVersion: '1.5.0' }]);
  });

  it("keeps counting a re-owned device without colliding with an earlier owner's rows", async () => {
    const [first, second] = [await register(api), await register(api)];
    const id = crypto.randomUUID();
    await send(beat(id), first.token);
    await send(beat(id, { appVersion: '1.5.0' }), second.token);
    const deleted = await api.fetch(`/api/users/${second._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${second.token}` },
    });
    expect(deleted.status).toBe(200);
    // The first owner's row stays theirs; the device's next record starts at heartbeat 1 again.
    expect((await send(beat(id, { appVersion: '1.6.0' }))).status).toBe(200);
    expect((await history(id)).map((row) => [row.heartbeat, row.toVersion])).toEqual([
      [1, '1.4.0'],
      [1, '1.6.0'],
    ]);
  });
});
