import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { reminderKey } from '../../../worker/riding/reminders/idempotency-key';
import { describeAccessChecks } from '../../support/access-checks';
import { register, type TestAccount } from '../../support/accounts';
import { addTrick, as, createList, fieldsRefused } from '../../support/trick-lists';
import { createApi } from '../../support/worker-api';

const api = createApi('reminders');
const rowsOf = (listId: string): Promise<any[]> =>
  api.db((db) =>
    db
      .collection('scheduledNotifications')
      .find({ listId: new ObjectId(listId) })
      .sort({ scheduledFor: 1 })
      .toArray(),
  );
const putCadence = (rider: TestAccount, listId: string, cadence: string) =>
  api.fetch(`/api/users/me/reminder-cadence/${listId}`, { method: 'PUT', headers: as(rider), json: { cadence } });
const statuses = (rows: { status?: string }[]) => rows.map((row) => row.status);

// Lists start with cadence off, so each test's own PUT makes the only plan.
async function riderWithList(cadence = 'off') {
  const rider = await register(api);
  const list = await createList(api, rider, { name: 'Park', sport: 'skateboarding', reminderCadence: cadence });
  const trick = await addTrick(api, rider, list._id, { name: 'Heelflip' });
  return { rider, listId: list._id as string, trick };
}

describe('reminder cadence', () => {
  it('lists every list of the rider with its cadence, weekly unless changed', async () => {
    const rider = await register(api);
    const a = await createList(api, rider, { name: 'A', sport: 'bmx' });
    const b = await createList(api, rider, { name: 'B', sport: 'bmx', reminderCadence: 'daily' });
    const res = await api.fetch('/api/users/me/reminder-cadence', { headers: as(rider) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { listId: a._id, cadence: 'weekly' },
      { listId: b._id, cadence: 'daily' },
    ]);
  });

  it('plans a new list at once with its cadence, weekly by default', async () => {
    const rider = await register(api);
    const { _id: listId } = await createList(api, rider, { name: 'New', sport: 'bmx' });
    await addTrick(api, rider, listId);
    const rows = await rowsOf(listId);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.length).toBeLessThanOrEqual(5);
    // Planned before its first trick was added: the slot names no trick; the trick is chosen at send time.
    expect(rows.every((row) => row.trickId === null && row.status === 'pending')).toBe(true);
  });

  it('plans one pending row per slot of the next 30 days, keyed by user, list, trick and time', async () => {
    const { rider, listId, trick } = await riderWithList();
    const res = await putCadence(rider, listId, 'daily');
    expect(res.status).toBe(200);
    const plan = await res.json<any>();
    expect(plan).toMatchObject({ listId, cadence: 'daily' });
    expect(plan.plannedFor.length).toBeGreaterThanOrEqual(LIMITS.reminders.planningHorizonDays);
    const rows = await rowsOf(listId);
    expect(rows.map((row) => row.scheduledFor.toISOString())).toEqual(plan.plannedFor);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'pending', category: 'reminder', attemptCount: 0, lastAttemptAt: null });
      expect(row.trickId.toHexString()).toBe(trick._id);
      expect(row.idempotencyKey).toBe(reminderKey(row.userId, row.listId, row.trickId, row.scheduledFor));
    }
  });

  it('re-planning twice creates no duplicates', async () => {
    const { rider, listId } = await riderWithList();
    expect((await putCadence(rider, listId, '3x-week')).status).toBe(200);
    const first = await rowsOf(listId);
    expect((await putCadence(rider, listId, '3x-week')).status).toBe(200);
    const second = await rowsOf(listId);
    expect(second.map((row) => row._id)).toEqual(first.map((row) => row._id));
    expect(statuses(second).every((status) => status === 'pending')).toBe(true);
  });

  it('cancels pending rows no longer due, and planning the same slots again revives them without duplicates', async () => {
    const { rider, listId } = await riderWithList();
    await putCadence(rider, listId, 'daily');
    const daily = await rowsOf(listId);
    expect((await putCadence(rider, listId, 'off')).status).toBe(200);
    expect(new Set(statuses(await rowsOf(listId)))).toEqual(new Set(['cancelled']));
    await putCadence(rider, listId, 'daily');
    const again = await rowsOf(listId);
    expect(again).toHaveLength(daily.length);
    expect(statuses(again).every((status) => status === 'pending')).toBe(true);
    await putCadence(rider, listId, 'weekly');
    const weekly = await rowsOf(listId);
    expect(weekly.filter((row) => row.status === 'pending').length).toBeLessThanOrEqual(5);
    expect(weekly).toHaveLength(daily.length);
  });

  it('re-plans when the cadence changes through PATCH /api/tricklists/:listId too', async () => {
    const { rider, listId } = await riderWithList();
    const res = await api.fetch(`/api/tricklists/${listId}`, {
      method: 'PATCH',
      headers: as(rider),
      json: { reminderCadence: 'daily' },
    });
    expect(res.status).toBe(200);
    expect((await rowsOf(listId)).length).toBeGreaterThanOrEqual(LIMITS.reminders.planningHorizonDays);
  });

  it("answers 404 for another rider's list and 400 naming cadence for an unknown one", async () => {
    const { listId } = await riderWithList();
    const other = await register(api);
    const res = await putCadence(other, listId, 'daily');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Trick list not found.' });
    expect(await rowsOf(listId)).toEqual([]);
    const { rider, listId: own } = await riderWithList();
    expect(await fieldsRefused(await putCadence(rider, own, 'hourly'))).toEqual(['cadence']);
  });
});

describe('landing a trick', () => {
  it("moves the list's pending reminders naming it onto the next outstanding trick, then to none", async () => {
    const { rider, listId, trick } = await riderWithList();
    const next = await addTrick(api, rider, listId, { name: 'Kickflip' });
    await putCadence(rider, listId, 'daily');
    const [sent, ...pending] = await rowsOf(listId);
    await api.db((db) =>
      db.collection('scheduledNotifications').updateOne({ _id: sent._id }, { $set: { status: 'sent' } }),
    );
    const land = (trickId: string) =>
      api.fetch(`/api/tricklists/${listId}/tricks/${trickId}/land`, { method: 'POST', headers: as(rider) });
    expect((await land(trick._id)).status).toBe(200);
    const moved = await rowsOf(listId);
    expect(moved[0]).toMatchObject({ status: 'sent', idempotencyKey: sent.idempotencyKey });
    expect(moved.slice(1).map((row) => row.scheduledFor)).toEqual(pending.map((row) => row.scheduledFor));
    for (const row of moved.slice(1)) {
      expect(row).toMatchObject({ status: 'pending' });
      expect(row.trickId.toHexString()).toBe(next._id);
      expect(row.idempotencyKey).toBe(reminderKey(row.userId, row.listId, row.trickId, row.scheduledFor));
    }
    expect((await land(next._id)).status).toBe(200);
    for (const row of (await rowsOf(listId)).slice(1)) {
      expect(row).toMatchObject({ status: 'pending', trickId: null });
      expect(row.idempotencyKey).toBe(reminderKey(row.userId, row.listId, null, row.scheduledFor));
    }
  });

  it('keeps one pending row per slot when the next trick already had rows there (landed, reopened, landed again)', async () => {
    const { rider, listId, trick } = await riderWithList();
    const next = await addTrick(api, rider, listId, { name: 'Kickflip' });
    await putCadence(rider, listId, 'daily');
    const path = `/api/tricklists/${listId}/tricks/${trick._id}`;
    const land = () => api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) });
    expect((await land()).status).toBe(200);
    const reopen = await api.fetch(path, { method: 'PATCH', headers: as(rider), json: { status: 'learning' } });
    expect(reopen.status).toBe(200);
    expect((await putCadence(rider, listId, 'daily')).status).toBe(200);
    expect((await land()).status).toBe(200);
    const rows = await rowsOf(listId);
    const pending = rows.filter((row) => row.status === 'pending');
    expect(new Set(pending.map((row) => row.scheduledFor.toISOString())).size).toBe(pending.length);
    expect(pending.length).toBe(rows.length / 2);
    expect(pending.every((row) => row.trickId.toHexString() === next._id)).toBe(true);
    expect(
      statuses(rows.filter((row) => row.trickId.toHexString() === trick._id)).every((s) => s === 'cancelled'),
    ).toBe(true);
  });
});

describe('local scheduling', () => {
  it('answers the pending reminders within 14 days by default, each with the notification to schedule', async () => {
    const { rider, listId, trick } = await riderWithList();
    await putCadence(rider, listId, 'daily');
    const res = await api.fetch('/api/users/me/scheduled-notifications', { headers: as(rider) });
    expect(res.status).toBe(200);
    const rows = await res.json<any[]>();
    const horizon = Date.now() + 14 * 86_400_000;
    expect(rows.length).toBeGreaterThanOrEqual(13);
    expect(rows.every((row) => Date.parse(row.scheduledFor) <= horizon && row.status === 'pending')).toBe(true);
    expect(rows[0].notification).toEqual({
      title: 'Park',
      body: 'Still on your list: Heelflip. Time for a session?',
      threadId: `reminder-${listId}`,
      channelId: 'reminders',
      data: {
        url: `/tricklists/${listId}?fromReminder=1&trickId=${trick._id}`,
        category: 'reminders',
        idempotencyKey: rows[0].idempotencyKey,
        listId,
        trickId: trick._id,
      },
    });
    const three = await api.fetch('/api/users/me/scheduled-notifications?within=3d', { headers: as(rider) });
    expect((await three.json<any[]>()).length).toBeLessThanOrEqual(3);
  });

  it('refuses a within that is not 1d to 14d, naming the field', async () => {
    const rider = await register(api);
    for (const within of ['15d', '0d', '14', 'week']) {
      const res = await api.fetch(`/api/users/me/scheduled-notifications?within=${within}`, { headers: as(rider) });
      expect(await fieldsRefused(res)).toEqual(['within']);
    }
  });
});

describe('confirming a local delivery', () => {
  const confirm = (rider: TestAccount, id: string) =>
    api.fetch(`/api/users/me/scheduled-notifications/${id}/delivered`, { method: 'POST', headers: as(rider) });

  it('moves a pending row to sent by the local path, and a repeated confirmation answers the same', async () => {
    const { rider, listId } = await riderWithList();
    await putCadence(rider, listId, 'weekly');
    const [row] = await rowsOf(listId);
    const res = await confirm(rider, row!._id.toHexString());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ _id: row!._id.toHexString(), status: 'sent' });
    expect((await rowsOf(listId))[0]).toMatchObject({ status: 'sent', sentVia: 'local' });
    expect((await confirm(rider, row!._id.toHexString())).status).toBe(200);
  });

  it('refuses a cancelled row with 409 and answers 404 for another rider’s row', async () => {
    const { rider, listId } = await riderWithList();
    await putCadence(rider, listId, 'weekly');
    const [row] = await rowsOf(listId);
    expect((await confirm(await register(api), row!._id.toHexString())).status).toBe(404);
    await putCadence(rider, listId, 'off');
    expect((await confirm(rider, row!._id.toHexString())).status).toBe(409);
    expect((await rowsOf(listId))[0]!.status).toBe('cancelled');
  });
});

describe('opening an auto-paused list', () => {
  it('says so once with remindersAutoPaused, and records lastOpenedAt', async () => {
    const { rider, listId } = await riderWithList();
    await api.db((db) =>
      db
        .collection('tricklists')
        .updateOne({ _id: new ObjectId(listId) }, { $set: { reminderCadence: 'off', remindersPausedAt: new Date() } }),
    );
    const open = () => api.fetch(`/api/tricklists/${listId}`, { headers: as(rider) }).then((res) => res.json<any>());
    const first = await open();
    expect(first).toMatchObject({ remindersAutoPaused: true, reminderCadence: 'off' });
    expect(first.lastOpenedAt).toEqual(expect.any(String));
    expect(await open()).toMatchObject({ remindersAutoPaused: false });
  });

  it('does not flag a list the rider turned off themselves', async () => {
    const { rider, listId } = await riderWithList();
    const res = await api.fetch(`/api/tricklists/${listId}`, { headers: as(rider) });
    expect(await res.json()).toMatchObject({ remindersAutoPaused: false });
  });
});

describeAccessChecks(api, [
  { method: 'GET', path: '/api/users/me/reminder-cadence', check: 'auth' },
  { method: 'PUT', path: '/api/users/me/reminder-cadence/:id', check: 'auth', json: { cadence: 'daily' } },
  { method: 'GET', path: '/api/users/me/scheduled-notifications', check: 'auth' },
  { method: 'POST', path: '/api/users/me/scheduled-notifications/:id/delivered', check: 'auth' },
]);
