import { unzipSync } from 'fflate';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { DataExportDoc } from '../../../worker/accounts/documents';
import { claimExport } from '../../../worker/accounts/exports/builds';
import { runDataExports } from '../../../worker/accounts/exports/run';
import { askForExport } from '../../../worker/accounts/exports/service';
import { FAILURE_TEXT } from '../../../worker/accounts/exports/views';
import type { Env } from '../../../worker/platform/env';
import { LIMITS } from '../../../worker/platform/limits';
import { DATA_EXPORT_DEPS } from '../../../worker/schedules';
import { register, type TestAccount } from '../../support/accounts';
import { seedReadyExport, storedExports } from '../../support/data-exports';
import { liveExpoToken, pushTestbed } from '../../support/expo-push-stand-in';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { LONG_TEST_MS } from '../../support/time-limits';

// Building exports in the background (the `* * * * *` cron, worker/accounts/exports/run.ts) with the real
// archive writer against the local R2 bucket, the push to the rider, retries, expiry and deletion mid-build.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const as = (account: TestAccount) => ({ headers: { 'x-auth-token': account.token } });

/** An object whose methods are the target's own, bound to it (workerd's bindings refuse another `this`), but for `overrides`. */
function withMethods<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get: (real, name) => {
      if (name in overrides) return overrides[name as keyof T];
      const value = Reflect.get(real, name, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
  });
}

/**
 * A database and push project of the test's own, so a run at a chosen clock claims only this test's exports, and
 * the helpers over it.
 */
function testbed(label: string) {
  const push = pushTestbed(`data-export-${label}`);
  const { api } = push;
  return {
    push,
    api,
    /** Runs the background job once at `now`, as the cron does, with the testbed's env (or `env`). */
    runAt: (now: Date, env: Env = api.env) =>
      push.withStore((store) => runDataExports(store, env, DATA_EXPORT_DEPS, now)),
    async ask(account: TestAccount, now = new Date()) {
      const asked = await push.withStore((store) => askForExport(store, new ObjectId(account._id), { now }));
      if (typeof asked === 'string') throw new Error(asked);
      return asked.export;
    },
    stored: async (id: ObjectId) =>
      (await api.db((db) => db.collection<DataExportDoc>('data_exports').findOne({ _id: id })))!,
    /** The MEDIA bucket with some methods replaced. */
    bucketWith: (overrides: Partial<R2Bucket>) => withMethods(api.env.MEDIA, overrides),
    async deleteAccount(account: TestAccount) {
      const res = await api.fetch(`/api/users/${account._id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${account.token}` },
      });
      expect(res.status).toBe(200);
    },
  };
}

describe('building an export', () => {
  it(
    'builds a queued export into a ZIP the rider downloads and unzips, and pushes the rider',
    async () => {
      const { push, api } = testbed('built');
      await push.script({});
      const [rider, other] = [await register(api, { name: 'Exporter' }), await register(api, { name: 'Someone Else' })];
      const { token, doc } = liveExpoToken(new ObjectId(rider._id));
      await api.db(async (db) => {
        await db.collection('pushTokens').insertOne(doc);
        await db.collection('tricklists').insertMany([
          {
            userId: new ObjectId(rider._id),
            name: 'Rider list',
            tricks: [],
            createdAt: new Date(),
            updatedAt: new Date(),
          },
          {
            userId: new ObjectId(other._id),
            name: 'Other list',
            tricks: [],
            createdAt: new Date(),
            updatedAt: new Date(),
          },
        ]);
      });
      const asked = await (await api.fetch('/api/users/me/export', { method: 'POST', ...as(rider) })).json<{
        _id: string;
      }>();

      await push.runCron('* * * * *');

      const [listed] = (await (await api.fetch('/api/users/me/exports', as(rider))).json<{ exports: any[] }>()).exports;
      expect(listed).toMatchObject({ _id: asked._id, state: 'ready', failure: null });
      expect(listed.bytes).toBeGreaterThan(0);
      expect(new Date(listed.expiresAt).getTime() - new Date(listed.readyAt).getTime()).toBe(
        LIMITS.dataExports.keepDays * DAY,
      );
      expect(await push.sent()).toEqual([
        expect.objectContaining({
          to: token,
          title: 'Your data is ready',
          data: expect.objectContaining({ url: '/settings/data-export', exportId: asked._id }),
        }),
      ]);

      const link = await (await api.fetch(`/api/users/me/exports/${asked._id}/download`, as(rider))).json<{
        url: string;
      }>();
      const url = new URL(link.url);
      const file = await api.fetch(`${url.pathname}${url.search}`);
      expect(file.status).toBe(200);
      const zip = new Uint8Array(await file.arrayBuffer());
      expect(zip.byteLength).toBe(listed.bytes);
      const files = unzipSync(zip);
      expect(Object.keys(files)).toContain('README.html');
      const everything = Object.values(files)
        .map((bytes) => new TextDecoder().decode(bytes))
        .join('\n');
      expect(everything).toContain('Rider list');
      expect(everything).not.toContain('Other list');
      expect(everything).not.toContain(other.email);
    },
    LONG_TEST_MS,
  );

  it('lets only one of two racing runs claim an export', async () => {
    const { push, api, ask } = testbed('race');
    const rider = await register(api);
    const now = new Date();
    await ask(rider, now);
    const claims = await Promise.all([
      push.withStore((store) => claimExport(store, now)),
      push.withStore((store) => claimExport(store, now)),
    ]);
    const mine = claims.filter((claim) => claim?.export.riderId.toHexString() === rider._id);
    expect(mine).toHaveLength(1);
    expect(await storedExports(api, rider._id)).toMatchObject([{ state: 'building', attempts: 1 }]);
  });

  it(
    'takes up a build whose Worker died once its lease ran out, and fails one that died on its last attempt',
    async () => {
      const { api, runAt, ask, stored } = testbed('lease');
      const [rider, unlucky] = [await register(api), await register(api)];
      const now = new Date();
      const [revived, spent] = [await ask(rider, now), await ask(unlucky, now)];
      const died = { state: 'building', leaseId: 'a-dead-build', dueAt: new Date(now.getTime() - MINUTE) };
      await api.db(async (db) => {
        await db.collection('data_exports').updateOne({ _id: revived._id }, { $set: { ...died, attempts: 1 } });
        await db
          .collection('data_exports')
          .updateOne({ _id: spent._id }, { $set: { ...died, attempts: LIMITS.dataExports.attempts } });
      });
      await runAt(now);
      expect(await stored(revived._id)).toMatchObject({ state: 'ready', attempts: 2, leaseId: null });
      expect(await stored(spent._id)).toMatchObject({ state: 'failed', failure: 'build-interrupted' });
    },
    LONG_TEST_MS,
  );
});

describe('a failing build', () => {
  it('is retried after a growing wait, then failed with a reason the rider reads', async () => {
    const { api, runAt, ask, stored, bucketWith } = testbed('retries');
    const rider = await register(api);
    const start = new Date(Date.now() + 365 * DAY);
    const asked = await ask(rider, start);
    const broken = {
      ...api.env,
      MEDIA: bucketWith({
        createMultipartUpload: async () => {
          throw new Error('R2 is down (internal detail: bucket rider-media)');
        },
      }),
    };
    const base = LIMITS.dataExports.retryAfterMinutes * MINUTE;
    const lines = await captureLogLines(async () => {
      await runAt(start, broken);
      expect(await stored(asked._id)).toMatchObject({
        state: 'queued',
        attempts: 1,
        dueAt: new Date(start.getTime() + base),
      });
      // Not due yet: nothing happens before the wait is over.
      await runAt(new Date(start.getTime() + base - 1), broken);
      expect(await stored(asked._id)).toMatchObject({ state: 'queued', attempts: 1 });
      await runAt(new Date(start.getTime() + base), broken);
      expect(await stored(asked._id)).toMatchObject({
        state: 'queued',
        attempts: 2,
        dueAt: new Date(start.getTime() + 3 * base),
      });
      await runAt(new Date(start.getTime() + 3 * base), broken);
    });
    expect(await stored(asked._id)).toMatchObject({ state: 'failed', attempts: 3, failure: 'build-failed' });
    expect(eventLines(lines, 'accounts.export.build-failed').map((line) => line.next)).toEqual([
      'retry',
      'retry',
      'failed',
    ]);
    const res = await api.fetch('/api/users/me/exports', as(rider));
    const body = await res.text();
    expect(JSON.parse(body).exports[0]).toMatchObject({ state: 'failed', failure: FAILURE_TEXT['build-failed'] });
    expect(body).not.toContain('R2 is down');
    expect(body).not.toContain('rider-media');
  });
});

describe('expiry', () => {
  it('deletes files past their 7 days and marks them expired; fresher files stay', async () => {
    const { api, runAt, stored } = testbed('expiry');
    const rider = await register(api);
    const now = new Date();
    const old = await seedReadyExport(api, rider._id, {
      readyAt: new Date(now.getTime() - 7 * DAY - MINUTE),
      day: '2020-02-01',
    });
    const fresh = await seedReadyExport(api, rider._id, {
      readyAt: new Date(now.getTime() - 6 * DAY),
      day: '2020-02-02',
    });
    await runAt(now);
    expect(await api.env.MEDIA.head(old.key)).toBeNull();
    expect(await api.env.MEDIA.head(fresh.key)).not.toBeNull();
    expect(await stored(new ObjectId(old.id))).toMatchObject({ state: 'expired' });
    expect(await stored(new ObjectId(fresh.id))).toMatchObject({ state: 'ready' });
  });
});

describe('deleting the account', () => {
  it('deletes its exports and their files', async () => {
    const { api, deleteAccount } = testbed('deletion');
    const rider = await register(api);
    const seeded = await seedReadyExport(api, rider._id);
    await deleteAccount(rider);
    expect(await api.env.MEDIA.head(seeded.key)).toBeNull();
    expect(await storedExports(api, rider._id)).toEqual([]);
  });

  it(
    'while its export is being built leaves no file: the build stops at its next check',
    async () => {
      const { api, runAt, ask, bucketWith, deleteAccount } = testbed('mid-build');
      const rider = await register(api);
      const asked = await ask(rider);
      const deletingMidBuild = {
        ...api.env,
        MEDIA: bucketWith({
          createMultipartUpload: async (key, options) => {
            const upload = await api.env.MEDIA.createMultipartUpload(key, options);
            await deleteAccount(rider);
            return upload;
          },
        }),
      };
      const summary = await runAt(new Date(), deletingMidBuild);
      expect(summary).toMatchObject({ built: 0, withdrawn: 1 });
      expect(await api.env.MEDIA.head(asked.key!)).toBeNull();
      expect(await storedExports(api, rider._id)).toEqual([]);
    },
    LONG_TEST_MS,
  );

  it(
    'just before the file is complete leaves no file either',
    async () => {
      const { api, runAt, ask, bucketWith, deleteAccount } = testbed('at-complete');
      const rider = await register(api);
      const asked = await ask(rider);
      const deletingAtTheEnd = {
        ...api.env,
        MEDIA: bucketWith({
          createMultipartUpload: async (key, options) => {
            const upload = await api.env.MEDIA.createMultipartUpload(key, options);
            return withMethods(upload, {
              // The deletion lands after the build's last check, before the file exists: its follow-up finds no file.
              complete: async (parts: R2UploadedPart[]) => {
                await deleteAccount(rider);
                return upload.complete(parts);
              },
            });
          },
        }),
      };
      const summary = await runAt(new Date(), deletingAtTheEnd);
      expect(summary).toMatchObject({ built: 0, withdrawn: 1 });
      expect(await api.env.MEDIA.head(asked.key!)).toBeNull();
      expect(await storedExports(api, rider._id)).toEqual([]);
    },
    LONG_TEST_MS,
  );
});
