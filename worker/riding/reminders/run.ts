import type { ObjectId } from 'mongodb';
import { type DeliveryOutcome, type DeliveryRequest, deliver } from '../../notifications/push/deliver';
import { type ClaimedBatch, workDueBatches } from '../../platform/db/claimed-batches';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import type { ScheduledNotificationDoc } from '../documents';
import { findListsForReminders } from '../tricklists/service';
import { longestOutstandingTricks } from '../tricks/service';
import { pauseUnopenedLists } from './auto-pause';
import { reminderQueue, type Settlement } from './claims';
import { reminderNotification } from './notification';

export interface ReminderRunSummary {
  paused: number;
  claimed: number;
  sent: number;
  retried: number;
  cancelled: number;
  failed: number;
}

/**
 * The reminder worker (every 5 minutes, worker/schedules.ts): pauses lists unopened for 60 days, then
 * claims due rows in batches and sends each batch through one `deliver()` call.
 */
export async function runReminders(store: Store, env: Env, now = new Date()): Promise<ReminderRunSummary> {
  const paused = await pauseUnopenedLists(store, now);
  const { claimed, settled } = await workDueBatches(reminderQueue(store), now, (batch) =>
    sendBatch(store, env, batch, now),
  );
  const { sent = 0, retry: retried = 0, cancelled = 0, failed = 0 } = settled;
  return { paused, claimed, sent, retried, cancelled, failed };
}

async function sendBatch(
  store: Store,
  env: Env,
  batch: ClaimedBatch<ScheduledNotificationDoc>,
  now: Date,
): Promise<Settlement[]> {
  const listIds = unique(batch.rows.map((row) => row.listId));
  const [lists, tricks] = await Promise.all([
    findListsForReminders(store, listIds),
    longestOutstandingTricks(store, listIds),
  ]);
  const listsById = new Map(lists.map((list) => [list._id.toHexString(), list]));
  const expiredBefore = now.getTime() - LIMITS.reminders.expiryHours * 3_600_000;
  const settlements: Settlement[] = [];
  const sending: { row: Settlement['row']; trickId: ObjectId; request: DeliveryRequest }[] = [];
  for (const row of batch.rows) {
    const list = listsById.get(row.listId.toHexString());
    const trick = tricks.get(row.listId.toHexString());
    const cancel = (reason: string) => settlements.push({ row, to: 'cancelled', reason, attempted: false });
    if (!list) cancel('list-deleted');
    else if (list.reminderCadence === 'off') cancel('cadence-off');
    else if (!trick) cancel('trick-complete');
    else if (row.scheduledFor.getTime() < expiredBefore) cancel('expired');
    else {
      const notification = reminderNotification(row, list.name, trick);
      const request = {
        userId: row.userId,
        category: 'reminders' as const,
        notification,
        idempotencyKey: row.idempotencyKey,
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

function unique(ids: ObjectId[]): ObjectId[] {
  return [...new Map(ids.map((id) => [id.toHexString(), id])).values()];
}
