import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { askForExport } from '../../../worker/accounts/exports/service';
import { createStore } from '../../../worker/platform/db/store';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { seedReadyExport, storedExports } from '../../support/data-exports';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// Asking for a copy of one's data, listing the exports, and handing the file over through a signed link
// (docs/data-export.md). Building is test/worker/accounts/data-export-builds.test.ts.

const api = createApi('data-export-requests');

const as = (account: TestAccount) => ({ headers: { 'x-auth-token': account.token } });
const ask = (account: TestAccount) => api.fetch('/api/users/me/export', { method: 'POST', ...as(account) });
const list = async (account: TestAccount) => {
  const res = await api.fetch('/api/users/me/exports', as(account));
  expect(res.status).toBe(200);
  return (await res.json<{ exports: Record<string, unknown>[] }>()).exports;
};
const linkFor = (account: TestAccount, exportId: string) =>
  api.fetch(`/api/users/me/exports/${exportId}/download`, as(account));

/** The path and query of a download link, as the test Worker is reached. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe('asking for an export', () => {
  it('answers 202 with a queued export, and the list shows it with no size or expiry yet', async () => {
    const rider = await register(api);
    const res = await ask(rider);
    expect(res.status).toBe(202);
    const asked = await res.json<Record<string, unknown>>();
    expect(asked).toMatchObject({ state: 'queued', startedBy: 'rider', bytes: null, expiresAt: null, failure: null });
    expect(asked.day).toBe(new Date().toISOString().slice(0, 10));
    expect(await list(rider)).toEqual([asked]);
  });

  it('answers a second request the same day with the first export (200), whatever its state', async () => {
    const rider = await register(api);
    const first = await (await ask(rider)).json<{ _id: string }>();
    const again = await ask(rider);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ _id: first._id, state: 'queued' });
    expect(await storedExports(api, rider._id)).toHaveLength(1);
  });

  it('ends two racing requests with one export: one 202, one 200 with the same id', async () => {
    const rider = await register(api);
    const answers = await Promise.all([ask(rider), ask(rider)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 202]);
    const ids = await Promise.all(answers.map(async (res) => (await res.json<{ _id: string }>())._id));
    expect(ids[0]).toBe(ids[1]);
    expect(await storedExports(api, rider._id)).toHaveLength(1);
  });

  it('makes a new export the next UTC day, by the clock the request is made at', async () => {
    const rider = await register(api);
    const riderId = new ObjectId(rider._id);
    const evening = new Date('2026-03-01T23:59:59.000Z');
    const morning = new Date('2026-03-02T00:00:00.000Z');
    const asked = await api.db(async (db) => {
      const store = createStore(() => db);
      return [
        await askForExport(store, riderId, { now: evening }),
        await askForExport(store, riderId, { now: evening }),
        await askForExport(store, riderId, { now: morning }),
      ];
    });
    const [first, sameDay, nextDay] = asked.map((one) => (typeof one === 'string' ? undefined : one));
    expect(first).toMatchObject({ created: true, export: { day: '2026-03-01' } });
    expect(sameDay).toMatchObject({ created: false, export: { _id: first!.export._id } });
    expect(nextDay).toMatchObject({ created: true, export: { day: '2026-03-02' } });
    expect((await list(rider)).map((one) => one.day)).toEqual(['2026-03-02', '2026-03-01']);
  });

  it("lists only the rider's own exports", async () => {
    const [rider, other] = [await register(api), await register(api)];
    await ask(other);
    expect(await list(rider)).toEqual([]);
  });

  it('needs a token', async () => {
    const res = await api.fetch('/api/users/me/export', { method: 'POST' });
    expect(res.status).toBe(401);
  });
});

describe('handing the file over', () => {
  it('gives the owner a short-lived link that serves the ZIP, whole and by range, without a token', async () => {
    const rider = await register(api);
    const content = new Uint8Array(new TextEncoder().encode('PK fake zip bytes for the link test'));
    const seeded = await seedReadyExport(api, rider._id, { content });
    const listed = await list(rider);
    expect(listed[0]).toMatchObject({
      _id: seeded.id,
      state: 'ready',
      bytes: content.byteLength,
      expiresAt: seeded.expiresAt.toISOString(),
    });

    const res = await linkFor(rider, seeded.id);
    expect(res.status).toBe(200);
    const link = await res.json<{ url: string; expiresAt: string }>();
    expect(link.url).not.toContain(seeded.key);
    expect(new Date(link.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(link.expiresAt).getTime()).toBeLessThanOrEqual(Date.now() + 15 * 60_000);

    const file = await api.fetch(pathOf(link.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/zip');
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="rider-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(content);

    const part = await api.fetch(pathOf(link.url), { headers: { range: 'bytes=3-6' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 3-6/${content.byteLength}`);
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe('fake');
    const past = await api.fetch(pathOf(link.url), { headers: { range: `bytes=${content.byteLength}-` } });
    expect(past.status).toBe(416);
  });

  it("answers 404 for another rider's export, as for none", async () => {
    const [owner, other] = [await register(api), await register(api)];
    const seeded = await seedReadyExport(api, owner._id);
    const res = await linkFor(other, seeded.id);
    expect(res.status).toBe(404);
    expect((await linkFor(other, new ObjectId().toHexString())).status).toBe(404);
  });

  it('refuses a link past its expiry, one whose signature was changed, and one moved to another export', async () => {
    const [owner, other] = [await register(api), await register(api)];
    const seeded = await seedReadyExport(api, owner._id);
    const theirs = await seedReadyExport(api, other._id);
    const url = new URL((await (await linkFor(owner, seeded.id)).json<{ url: string }>()).url);

    const late = new URL(url);
    late.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 1));
    // Moving the expiry breaks the signature; a link signed with a past expiry is refused as expired.
    expect((await api.fetch(pathOf(late.toString()))).status).toBe(403);

    const forged = new URL(url);
    const signature = forged.searchParams.get('signature')!;
    forged.searchParams.set('signature', `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`);
    const refused = await api.fetch(pathOf(forged.toString()));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: 'The download link is not valid.' });

    const moved = new URL(url);
    moved.pathname = `/api/exports/${theirs.id}/file`;
    expect((await api.fetch(pathOf(moved.toString()))).status).toBe(403);
  });

  it('refuses an expired link even with its own signature', async () => {
    const owner = await register(api);
    const seeded = await seedReadyExport(api, owner._id);
    const { signLink } = await import('../../../worker/accounts/exports/download-link');
    const { signingKeys } = await import('../../../worker/platform/tokens/keys');
    const expires = Math.floor(Date.now() / 1000) - 1;
    const signature = await signLink(signingKeys(api.env), {
      exportId: new ObjectId(seeded.id),
      riderId: new ObjectId(owner._id),
      expires,
    });
    const res = await api.fetch(`/api/exports/${seeded.id}/file?expires=${expires}&signature=${signature}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'The download link expired; ask for a new one.' });
  });

  it('has no link for an export still queued (409) or past its expiry (410, shown expired)', async () => {
    const rider = await register(api);
    const queued = await (await ask(rider)).json<{ _id: string }>();
    expect((await linkFor(rider, queued._id)).status).toBe(409);
    const old = await seedReadyExport(api, rider._id, {
      readyAt: new Date(Date.now() - 8 * 24 * 60 * 60_000),
      day: '2020-01-01',
    });
    expect((await linkFor(rider, old.id)).status).toBe(410);
    expect((await list(rider)).find((one) => one._id === old.id)).toMatchObject({ state: 'expired', bytes: null });
  });
});

describe('an admin answering a request by mail', () => {
  it("starts a rider's export, lists it and takes its link, each logged", async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    let startedId = '';
    const lines = await captureLogLines(async () => {
      const started = await api.fetch(`/api/admin/users/${rider._id}/export`, { method: 'POST', ...as(admin) });
      expect(started.status).toBe(202);
      const body = await started.json<{ _id: string; startedBy: string }>();
      expect(body.startedBy).toBe('admin');
      startedId = body._id;
    });
    expect(eventLines(lines, 'accounts.export.started-by-admin')).toEqual([
      expect.objectContaining({ adminId: admin._id, userId: rider._id, exportId: startedId, created: true }),
    ]);
    // The rider sees it too: it is the rider's export of the day.
    expect((await ask(rider)).status).toBe(200);

    const seeded = await seedReadyExport(api, rider._id, { day: '2020-01-02' });
    const listed = await api.fetch(`/api/admin/users/${rider._id}/exports`, as(admin));
    expect((await listed.json<{ exports: { _id: string }[] }>()).exports.map((one) => one._id)).toEqual([
      startedId,
      seeded.id,
    ]);
    const fetched = await captureLogLines(async () => {
      const res = await api.fetch(`/api/admin/users/${rider._id}/exports/${seeded.id}/download`, as(admin));
      expect(res.status).toBe(200);
      const file = await api.fetch(pathOf((await res.json<{ url: string }>()).url));
      expect(file.status).toBe(200);
    });
    expect(eventLines(fetched, 'accounts.export.fetched-by-admin')).toEqual([
      expect.objectContaining({ adminId: admin._id, userId: rider._id, exportId: seeded.id }),
    ]);
  });

  it('answers 404 for an account there is not, and 403 for a rider who is not an admin', async () => {
    const [admin, rider] = [await registerAdmin(api), await register(api)];
    const unknown = await api.fetch(`/api/admin/users/${new ObjectId().toHexString()}/export`, {
      method: 'POST',
      ...as(admin),
    });
    expect(unknown.status).toBe(404);
    const refused = await api.fetch(`/api/admin/users/${rider._id}/export`, { method: 'POST', ...as(rider) });
    expect(refused.status).toBe(403);
  });
});
