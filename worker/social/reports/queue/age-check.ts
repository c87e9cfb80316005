import type { Store } from '../../../platform/db/store';
import { readCount, readDate, readId, readOneOf, readRecord } from '../../../platform/db/stored-values';
import type { Env } from '../../../platform/env';
import { LIMITS } from '../../../platform/limits';
import { logEvent } from '../../../platform/ops/log-line';
import { recordModerationQueue } from '../../../platform/ops/metrics';
import { REPORT_TARGETS } from '../schema';
import { agedItems, openItemFigures } from './service';

const HOUR_MS = 60 * 60 * 1000;
const hours = (ms: number) => Math.round((ms / HOUR_MS) * 10) / 10;

/**
 * The queue's check (a Cron Trigger, worker/schedules.ts): counts the open items and those waiting past
 * `LIMITS.report.agedItemHours` into the metrics, and names each aged item (the oldest first, a bounded number) in a
 * `moderation.queue.aged` line, so an operator can alert before App Review's 24 hours run out.
 */
export async function checkQueueAge(store: Store, env: Env, now = new Date()) {
  const agedBefore = new Date(now.getTime() - LIMITS.report.agedItemHours * HOUR_MS);
  const figures = await openItemFigures(store, agedBefore);
  const openItems = readCount(figures?.items) ?? 0;
  const aged = readCount(figures?.aged) ?? 0;
  const oldestAt = readDate(figures?.oldestAt);
  recordModerationQueue(env, {
    openItems,
    agedItems: aged,
    oldestAgeHours: oldestAt ? hours(now.getTime() - oldestAt.getTime()) : 0,
  });
  if (aged > 0) {
    for (const row of await agedItems(store, agedBefore, LIMITS.report.agedLinesPerRun)) {
      const key = readRecord(row._id);
      const targetId = readId(key?.targetId);
      const firstAt = readDate(row.firstAt);
      if (!targetId || !firstAt) continue;
      logEvent('moderation.queue.aged', {
        targetType: readOneOf(key?.targetType, REPORT_TARGETS) ?? 'unknown',
        targetId: targetId.toHexString(),
        riders: readCount(row.riders) ?? 0,
        ageHours: hours(now.getTime() - firstAt.getTime()),
      });
    }
  }
  return { openItems, agedItems: aged };
}
