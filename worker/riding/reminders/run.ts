import type { ObjectId } from 'mongodb';
import { type DeliveryOutcome, type DeliveryRequest, deliver } from '../../notifications/push/deliver';
import { type ClaimedBatch, workDueBatches } from '../../platform/db/claimed-batches';
import { distinctIds } from '../../platform/db/distinct-ids';
import type { Store } from '../../platform/db/store';
import { readOne } from '../../platform/db/stored-values';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import type { ScheduledNotificationDoc } from '../documents';
import { findListsForReminders } from '../tricklists/service';
import { findTricksByIds, longestOutstandingTricks } from '../tricks/service';
import { pauseUnopenedLists } from './auto-pause';
import { reminderQueue, type Settlement } from './claims';
import { reminderNotification } from './notification';
import { type ReminderRow, readReminderRow } from './reader';
import { reminderTrick } from './reminder-trick';

export interface ReminderRunSummary {
  paused: number;
  claimed: number;
  sent: number;
  retried: number;
  cancelled: number;
  failed: number;
  /** Rows that could not be read: left failed (`unreadable`) so the rest of the run goes on. */
  skipped: number;
}

/**
 * The reminder worker (every 5 minutes, worker/schedules.ts): pauses lists unopened for 60 days, then
 * claims due rows in batches and sends each batch through one `deliver()` call.
 */
export async function runReminders(store: Store, env: Env, now = new Date()): Promise<ReminderRunSummary> {
  const paused = await pauseUnopenedLists(store, now);
  const remindedLists = new Set<string>();
  const { claimed, settled } = await workDueBatches(reminderQueue(store), now, (batch) =>
    sendBatch(store, env, batch, remindedLists, now),
  );
  const { sent = 0, retry: retried = 0, cancelled = 0, failed = 0, skipped = 0 } = settled;
  return { paused, claimed, sent, retried, cancelled, failed, skipped };
}

/**
 * Settles one claimed batch. `remindedLists` holds the lists this run already handed a row to the sender,
 * across batches: a run sends one push per list, from its soonest due row.
 */
async function sendBatch(
  store: Store,
  env: Env,
  batch: ClaimedBatch<ScheduledNotificationDoc>,
  remindedLists: Set<string>,
  now: Date,
): Promise<Settlement[]> {
  const settlements: Settlement[] = [];
  const rows: { row: Settlement['row']; read: ReminderRow }[] = [];
  for (const row of batch.rows) {
    const read = readOne('scheduledNotifications', row, readReminderRow);
    if (read) rows.push({ row, read });
    else settlements.push({ row, to: 'skipped', reason: UNREADABLE });
  }
  const listIds = distinctIds(rows.map(({ read }) => read.listId));
  const [lists, named, outstanding] = await Promise.all([
    findListsForReminders(store, listIds),
    findTricksByIds(store, distinctIds(rows.flatMap(({ read }) => (read.trickId ? [read.trickId] : [])))),
    longestOutstandingTricks(store, listIds),
  ]);
  const listsById = new Map(lists.map((list) => [list._id.toHexString(), list]));
  const expiredBefore = now.getTime() - LIMITS.reminders.expiryHours * 3_600_000;
  const sending: { row: Settlement['row']; trickId: ObjectId; request: DeliveryRequest }[] = [];
  for (const { row, read } of rows.sort(soonestFirst)) {
    const listId = read.listId.toHexString();
    const list = listsById.get(listId);
    const trick = reminderTrick(
      read,
      read.trickId ? named.get(read.trickId.toHexString()) : undefined,
      outstanding.get(listId),
    );
    const cancel = (reason: string) => settlements.push({ row, to: 'cancelled', reason, attempted: false });
    if (!list) cancel('list-deleted');
    else if (list.reminderCadence === 'off') cancel('cadence-off');
    else if (!trick) cancel('trick-complete');
    else if (read.scheduledFor.getTime() < expiredBefore) cancel('expired');
    else if (remindedLists.has(listId)) cancel('superseded');
    else {
      remindedLists.add(listId);
      const notification = reminderNotification(read, list.name, trick);
      const request = {
        userId: read.userId,
        category: 'reminders' as const,
        notification,
        idempotencyKey: read.idempotencyKey,
      };
      sending.push({ row, trickId: trick._id, request });
    }
  }
  const outcomes = await deliver(
    store,
    env,
    sending.map((s) => s.request),
    now,
  );
  for (const [index, { row, trickId }] of sending.entries()) settlements.push(settle(row, trickId, outcomes[index]!));
  return settlements;
}

/** A delivery outcome as a row's next state: sent only on an accepted ticket; see docs/reminders.md for the rest. */
function settle(row: Settlement['row'], trickId: ObjectId, outcome: DeliveryOutcome): Settlement {
  if (outcome.status === 'accepted') return { row, to: 'sent', trickId };
  if (outcome.status === 'failed') return { row, to: 'failed', reason: outcome.error, attempted: true };
  if (outcome.reason === 'category-off') return { row, to: 'cancelled', reason: 'category-off', attempted: true };
  return { row, to: 'retry', reason: outcome.reason };
}

/** Why a claimed row was skipped: it could not be read (docs/reminders.md). */
const UNREADABLE = 'unreadable';

const soonestFirst = ({ read: a }: { read: ReminderRow }, { read: b }: { read: ReminderRow }) =>
  a.scheduledFor.getTime() - b.scheduledFor.getTime() || a._id.toHexString().localeCompare(b._id.toHexString());
