import {
  type DeliveryOutcome,
  type DeliveryRequest,
  deliver,
  type Notification,
} from '../../notifications/push/deliver';
import { type ClaimedBatch, workDueBatches } from '../../platform/db/claimed-batches';
import { distinctIds } from '../../platform/db/distinct-ids';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { readOne } from '../../platform/db/stored-values';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { isPublished } from '../changes/material';
import type { EventNotificationJobDoc } from '../documents';
import { readEvents } from '../stored-event';
import { readEventNotificationJob, readEventSubscriptions } from '../stored-subscription';
import { type JobSettlement, notificationJobQueue, takeDigestWindow, UNREADABLE_JOB } from './claims';
import { changeNotification, digestNotification } from './notification';

export interface EventNotificationRunSummary {
  claimed: number;
  sent: number;
  retried: number;
  skipped: number;
  failed: number;
}

/**
 * The event notification worker (Cron Trigger, worker/schedules.ts): claims due jobs in batches under a
 * lease and sends each batch through one `deliver()` call of the push sender (preferences category
 * `events`, quiet hours, live tokens), then settles every job (docs/event-notifications.md).
 */
export async function runEventNotifications(
  store: Store,
  env: Env,
  now = new Date(),
): Promise<EventNotificationRunSummary> {
  const { claimed, settled } = await workDueBatches(notificationJobQueue(store), now, (batch) =>
    sendBatch(store, env, batch, now),
  );
  const { sent = 0, retry: retried = 0, skipped = 0, failed = 0 } = settled;
  return { claimed, sent, retried, skipped, failed };
}

const EVENT_FIELDS = {
  _id: 1,
  slug: 1,
  title: 1,
  startAt: 1,
  timezone: 1,
  status: 1,
  venue: 1,
  approvalStatus: 1,
  'participation.registrationStatus': 1,
} as const;

async function sendBatch(
  store: Store,
  env: Env,
  batch: ClaimedBatch<EventNotificationJobDoc>,
  now: Date,
): Promise<JobSettlement[]> {
  const settlements: JobSettlement[] = [];
  // A job that cannot be read (no kind it knows, no rider, a digest without its subscription…) fails on its own
  // with its event line; the others go on.
  const rows: EventNotificationJobDoc[] = [];
  for (const stored of batch.rows) {
    const row = readOne('eventNotificationJobs', stored, readEventNotificationJob);
    if (row) rows.push(row);
    else settlements.push({ row: stored, to: 'failed', reason: UNREADABLE_JOB, attempted: false });
  }
  const eventIds = rows.flatMap((row) => (row.kind === 'change' ? [row.eventId] : (row.eventIds ?? [])));
  const subscriptionIds = rows.flatMap((row) => (row.kind === 'digest' ? [row.subscriptionId] : []));
  const [events, subscriptions] = await Promise.all([
    store.events
      .find({ _id: anyIdOf(...distinctIds(eventIds)) }, { projection: EVENT_FIELDS })
      .toArray()
      .then(readEvents),
    store.eventSubscriptions
      .find({ _id: anyIdOf(...distinctIds(subscriptionIds)) }, { projection: { _id: 1, userId: 1, name: 1 } })
      .toArray()
      .then(readEventSubscriptions),
  ]);
  const published = new Map(
    events.filter((event) => isPublished(event)).map((event) => [event._id.toHexString(), event]),
  );
  const subscriptionsById = new Map(subscriptions.map((sub) => [sub._id.toHexString(), sub]));
  const expiredBefore = now.getTime() - LIMITS.eventNotifications.expiryHours * 3_600_000;
  const sending: { row: EventNotificationJobDoc; request: DeliveryRequest }[] = [];
  const send = (row: EventNotificationJobDoc, notification: Notification) =>
    sending.push({
      row,
      request: { userId: row.userId, category: 'events', notification, idempotencyKey: row.jobKey },
    });
  const skip = (row: EventNotificationJobDoc, reason: string) =>
    settlements.push({ row, to: 'skipped', reason, attempted: false });

  for (const row of rows) {
    // News of a change goes stale; a digest only once it has waited that long after taking its window.
    const since = row.kind === 'change' ? row.createdAt : row.windowAt;
    if (since && since.getTime() < expiredBefore) {
      skip(row, 'expired');
      continue;
    }
    if (row.kind === 'change') {
      const event = published.get(row.eventId!.toHexString());
      if (event) send(row, changeNotification(row, event));
      else skip(row, 'event-gone');
      continue;
    }
    const subscription = subscriptionsById.get(row.subscriptionId!.toHexString());
    if (!subscription) {
      skip(row, 'subscription-deleted');
      continue;
    }
    const taken = await takeDigestWindow(store, row, batch.batchId, now);
    if (taken === 'gone') skip(row, 'subscription-deleted');
    else if ('wait' in taken) settlements.push({ row, to: 'retry', reason: 'window', at: taken.wait });
    else {
      // Events that joined between the claim and the window are in the closed row; read any not loaded yet.
      const ids = taken.row.eventIds ?? [];
      const missing = ids.filter((id) => !published.has(id.toHexString()) && !events.some((e) => e._id.equals(id)));
      if (missing.length)
        for (const event of readEvents(
          await store.events.find({ _id: anyIdOf(...missing) }, { projection: EVENT_FIELDS }).toArray(),
        ))
          if (isPublished(event)) published.set(event._id.toHexString(), event);
      const shown = ids
        .flatMap((id) => published.get(id.toHexString()) ?? [])
        .sort((a, b) => (a.startAt?.getTime() ?? Infinity) - (b.startAt?.getTime() ?? Infinity))
        .slice(0, LIMITS.eventNotifications.digestEventsMax);
      if (shown.length) send(taken.row, digestNotification(taken.row, subscription, shown));
      else skip(taken.row, 'no-events');
    }
  }
  const outcomes = await deliver(
    store,
    env,
    sending.map((s) => s.request),
    now,
  );
  for (const [index, { row }] of sending.entries()) settlements.push(settle(row, outcomes[index]!, now));
  return settlements;
}

/** A delivery outcome as the job's next state: quiet hours and missing tokens wait an hour, a category turned off ends it. */
function settle(row: EventNotificationJobDoc, outcome: DeliveryOutcome, now: Date): JobSettlement {
  if (outcome.status === 'accepted') return { row, to: 'sent' };
  if (outcome.status === 'failed') return { row, to: 'failed', reason: outcome.error, attempted: true };
  if (outcome.reason === 'category-off') return { row, to: 'skipped', reason: 'category-off', attempted: true };
  const at = new Date(now.getTime() + LIMITS.eventNotifications.retryDelayMinutes * 60_000);
  return { row, to: 'retry', reason: outcome.reason, at };
}
