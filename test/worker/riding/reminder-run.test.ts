import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { SCHEDULES } from '../../../worker/schedules';
import { register } from '../../support/accounts';
import { liveExpoToken, pushTestbed } from '../../support/expo-push-stand-in';
import { addTrick, as, createList } from '../../support/trick-lists';

// The reminder worker through the real Cron Trigger handler (worker/index.ts scheduled → worker/schedules.ts),
// against push-core's Expo stand-in (test/support/expo-push-stand-in.ts).

const push = pushTestbed('reminder-run');
const { api } = push;
const REMINDER_CRON = SCHEDULES.find((schedule) => schedule.job === 'trick reminders')!.cron;
const runReminders = () => push.runCron(REMINDER_CRON);
const MINUTE = 60_000;
const DAY = 86_400_000;
const hhmm = (at: Date) => at.toISOString().slice(11, 16);
const rowsOf = (listId: string): Promise<any[]> =>
  api.db((db) =>
    db
      .collection('scheduledNotifications')
      .find({ listId: new ObjectId(listId) })
      .sort({ scheduledFor: 1 })
      .toArray(),
  );
const sentTo = async (token: string) => (await push.sent()).filter((message) => message.to === token);

/**
 * A rider with a live Expo token, no quiet hours, and a daily list whose first `due` reminders are moved
 * into the past (as if their time had come).
 */
async function dueReminders(
  options: { due?: number; listName?: string; trickName?: string; quietHours?: object; token?: boolean } = {},
) {
  const rider = await register(api);
  const list = await createList(api, rider, {
    name: options.listName ?? 'Park',
    sport: 'skateboarding',
    reminderCadence: 'off',
  });
  const trick = await addTrick(api, rider, list._id, { name: options.trickName ?? 'Heelflip' });
  const userId = new ObjectId(rider._id);
  const now = new Date();
  const { token, doc } = liveExpoToken(userId, now);
  await api.db(async (db) => {
    if (options.token !== false) await db.collection('pushTokens').insertOne(doc);
    const quietHours = options.quietHours ?? { start: '00:00', end: '00:00', timezone: 'UTC' };
    await db.collection('users').updateOne({ _id: userId }, { $set: { notificationPreferences: { quietHours } } });
  });
  const res = await api.fetch(`/api/users/me/reminder-cadence/${list._id}`, {
    method: 'PUT',
    headers: as(rider),
    json: { cadence: 'daily' },
  });
  expect(res.status).toBe(200);
  const rows = (await rowsOf(list._id)).slice(0, options.due ?? 1);
  await api.db((db) =>
    Promise.all(
      rows.map((row, index) =>
        db
          .collection('scheduledNotifications')
          .updateOne({ _id: row._id }, { $set: { scheduledFor: new Date(now.getTime() - (index + 1) * MINUTE) } }),
      ),
    ),
  );
  return { rider, listId: list._id as string, trick, token, keys: rows.map((row) => row.idempotencyKey as string) };
}

describe('the reminder run', () => {
  it('sends a due pending reminder once, with one trick, the reminder payload, and marks it sent', async () => {
    const { listId, trick, token, keys } = await dueReminders({
      listName: 'Backyard bowl sessions with the whole crew',
      trickName: 'Frontside smith grind to fakie on the deep end coping, then a long carve back',
    });
    await runReminders();
    const [message, ...more] = await sentTo(token);
    expect(more).toEqual([]);
    expect(message!.title.length).toBeLessThanOrEqual(LIMITS.push.titleMax);
    expect(message!.title).toBe('Backyard bowl sessions with…');
    expect(message!.body.length).toBeLessThanOrEqual(LIMITS.push.bodyMax);
    expect(message!.body).toMatch(/^Still on your list: Frontside smith grind .*…$/);
    expect(message!.data).toMatchObject({
      url: `/tricklists/${listId}?fromReminder=1&trickId=${trick._id}`,
      category: 'reminders',
      idempotencyKey: keys[0],
      threadId: `reminder-${listId}`,
    });
    const [row] = await rowsOf(listId);
    expect(row).toMatchObject({ status: 'sent', sentVia: 'server', attemptCount: 1, leaseId: null });
    expect(row.sentTrickId.toHexString()).toBe(trick._id);
    await runReminders();
    expect(await sentTo(token)).toHaveLength(1);
  });

  it('sends each key once when two runs overlap', async () => {
    const riders = await Promise.all([1, 2, 3, 4].map(() => dueReminders()));
    await Promise.all([runReminders(), runReminders()]);
    for (const { token, keys } of riders)
      expect((await sentTo(token)).map((message) => message.data.idempotencyKey)).toEqual(keys);
  });

  it('sends one push per list in a run: the soonest due row, the others of the list cancelled as superseded', async () => {
    const { listId, token, keys } = await dueReminders({ due: 3 });
    await runReminders();
    const [message, ...more] = await sentTo(token);
    expect(more).toEqual([]);
    const rows = await rowsOf(listId);
    expect(message!.data.idempotencyKey).toBe(rows[0].idempotencyKey);
    expect(rows.slice(0, 3).map((row) => `${row.status} ${row.outcomeReason ?? ''}`)).toEqual([
      'sent ',
      'cancelled superseded',
      'cancelled superseded',
    ]);
    expect(new Set(rows.slice(0, 3).map((row) => row.idempotencyKey))).toEqual(new Set(keys));
  });

  it('cancels a due row whose trick is complete and sends the other due row of the list, about its own trick', async () => {
    const { rider, listId, trick, token } = await dueReminders({ due: 2 });
    const next = await addTrick(api, rider, listId, { name: 'Kickflip' });
    const [completeRow, outstandingRow] = await rowsOf(listId);
    await api.db(async (db) => {
      await db
        .collection('tricks')
        .updateOne({ _id: new ObjectId(trick._id) }, { $set: { status: 'landed', completed: true } });
      await db
        .collection('scheduledNotifications')
        .updateOne({ _id: outstandingRow._id }, { $set: { trickId: new ObjectId(next._id) } });
    });
    await runReminders();
    const [message, ...more] = await sentTo(token);
    expect(more).toEqual([]);
    expect(message!.body).toBe('Still on your list: Kickflip. Time for a session?');
    expect(message!.data).toMatchObject({ trickId: next._id, idempotencyKey: outstandingRow.idempotencyKey });
    const [cancelled, sent] = await rowsOf(listId);
    expect(cancelled).toMatchObject({ _id: completeRow._id, status: 'cancelled', outcomeReason: 'trick-complete' });
    expect(sent).toMatchObject({ _id: outstandingRow._id, status: 'sent' });
    expect(sent.sentTrickId.toHexString()).toBe(next._id);
  });

  it('skips a reminder during quiet hours and keeps it pending for a later run, an hour on', async () => {
    const now = new Date();
    const quietHours = {
      start: hhmm(new Date(now.getTime() - 60 * MINUTE)),
      end: hhmm(new Date(now.getTime() + 60 * MINUTE)),
      timezone: 'UTC',
    };
    const { listId, token } = await dueReminders({ quietHours });
    await runReminders();
    expect(await sentTo(token)).toEqual([]);
    const [row] = await rowsOf(listId);
    expect(row).toMatchObject({ status: 'pending', attemptCount: 1, outcomeReason: 'quiet-hours' });
    expect(row.leaseUntil.getTime()).toBeGreaterThan(Date.now() + (LIMITS.reminders.retryDelayMinutes - 5) * MINUTE);
    await runReminders();
    expect((await rowsOf(listId))[0].attemptCount).toBe(1);
  });

  it('cancels the reminder and sends nothing when the trick is complete at send time', async () => {
    const { rider, listId, trick, token } = await dueReminders();
    const land = await api.fetch(`/api/tricklists/${listId}/tricks/${trick._id}/land`, {
      method: 'POST',
      headers: as(rider),
      json: {},
    });
    expect(land.status).toBe(200);
    await runReminders();
    expect(await sentTo(token)).toEqual([]);
    expect((await rowsOf(listId))[0]).toMatchObject({ status: 'cancelled', outcomeReason: 'trick-complete' });
  });

  it('cancels with reminder pushes off, retries later with no live token, and fails when every ticket errors', async () => {
    const off = await dueReminders();
    await api.db((db) =>
      db
        .collection('users')
        .updateOne(
          { _id: new ObjectId(off.rider._id) },
          { $set: { 'notificationPreferences.reminders': { push: false } } },
        ),
    );
    const tokenless = await dueReminders({ token: false });
    const dead = await dueReminders();
    await push.script({ ticketErrors: { [dead.token]: 'DeviceNotRegistered' } });
    await runReminders();
    expect((await rowsOf(off.listId))[0]).toMatchObject({ status: 'cancelled', outcomeReason: 'category-off' });
    expect((await rowsOf(tokenless.listId))[0]).toMatchObject({
      status: 'pending',
      outcomeReason: 'no-live-tokens',
      attemptCount: 1,
    });
    expect((await rowsOf(dead.listId))[0]).toMatchObject({ status: 'failed', attemptCount: 1 });
  });

  it('cancels a reminder more than a day overdue, and one whose list was turned off, without sending', async () => {
    const late = await dueReminders();
    await api.db((db) =>
      db
        .collection('scheduledNotifications')
        .updateOne(
          { idempotencyKey: late.keys[0] },
          { $set: { scheduledFor: new Date(Date.now() - (LIMITS.reminders.expiryHours + 1) * 3_600_000) } },
        ),
    );
    const turnedOff = await dueReminders();
    await api.db((db) =>
      db
        .collection('tricklists')
        .updateOne({ _id: new ObjectId(turnedOff.listId) }, { $set: { reminderCadence: 'off' } }),
    );
    await runReminders();
    expect(await sentTo(late.token)).toEqual([]);
    expect(await sentTo(turnedOff.token)).toEqual([]);
    expect((await rowsOf(late.listId))[0]).toMatchObject({ status: 'cancelled', outcomeReason: 'expired' });
    expect((await rowsOf(turnedOff.listId))[0]).toMatchObject({ status: 'cancelled', outcomeReason: 'cadence-off' });
  });

  it('a reminder confirmed by the device before the run is not pushed', async () => {
    const { rider, listId, token } = await dueReminders();
    const [row] = await rowsOf(listId);
    const res = await api.fetch(`/api/users/me/scheduled-notifications/${row._id}/delivered`, {
      method: 'POST',
      headers: as(rider),
    });
    expect(res.status).toBe(200);
    await runReminders();
    expect(await sentTo(token)).toEqual([]);
    expect((await rowsOf(listId))[0]).toMatchObject({ status: 'sent', sentVia: 'local', attemptCount: 0 });
  });
});

describe('the 60-day auto-pause', () => {
  it('turns off a list not opened for 60 days, cancels its reminders, and its next open says so once', async () => {
    const stale = await dueReminders({ due: 0 });
    const fresh = await dueReminders({ due: 0 });
    const openedAgo = (listId: string, days: number) =>
      api.db((db) =>
        db
          .collection('tricklists')
          .updateOne({ _id: new ObjectId(listId) }, { $set: { lastOpenedAt: new Date(Date.now() - days * DAY) } }),
      );
    await openedAgo(stale.listId, LIMITS.reminders.autoPauseDays + 1);
    await openedAgo(fresh.listId, LIMITS.reminders.autoPauseDays - 1);
    await runReminders();
    const open = async (rider: typeof stale.rider, listId: string) =>
      (await api.fetch(`/api/tricklists/${listId}`, { headers: as(rider) })).json<any>();
    expect(new Set((await rowsOf(stale.listId)).map((row) => `${row.status} ${row.outcomeReason}`))).toEqual(
      new Set(['cancelled auto-paused']),
    );
    expect((await rowsOf(fresh.listId)).every((row) => row.status === 'pending')).toBe(true);
    expect(await open(stale.rider, stale.listId)).toMatchObject({ reminderCadence: 'off', remindersAutoPaused: true });
    expect(await open(stale.rider, stale.listId)).toMatchObject({ remindersAutoPaused: false });
    expect(await open(fresh.rider, fresh.listId)).toMatchObject({
      reminderCadence: 'daily',
      remindersAutoPaused: false,
    });
  });
});
