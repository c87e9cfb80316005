import { writeExportArchive } from './accounts/exports/archive';
import { type ExportRunDeps, runDataExports } from './accounts/exports/run';
import { grantMonthlyCredits } from './billing/ai-credits/grants';
import { reconcileYesterday } from './billing/ai-credits/reconciliation';
import { sweepStaleReservations } from './billing/ai-credits/reservations';
import { PERSONAL_DATA } from './data';
import { ingestionTally, runIngestion } from './events/ingestion/runner';
import { runEventNotifications } from './events/notifications/run';
import { sendDataExportReady } from './notifications/push/data-export-ready';
import { runReceipts } from './notifications/push/receipts';
import { openRequestConnection } from './platform/db/connection';
import type { Store } from './platform/db/store';
import type { Env } from './platform/env';
import { describeError, log } from './platform/ops/log-line';
import { roundedMs } from './platform/ops/request-timing';
import { runReminders } from './riding/reminders/run';
import { runMediaCleanup } from './social/media/cleanup';
import { checkQueueAge } from './social/reports/queue/age-check';

import { runContentChecks } from './social/review/run';

/**
 * What a job that isolates its items answers: how many it skipped (unreadable) and how many failed. Any
 * makes its cron line `partial` with the counts, so a run that left work undone never logs `ok`.
 */
export interface JobTally {
  skipped: number;
  failed: number;
}

/**
 * The tally of a run that left work undone, or undefined: a `JobTally`, or a summary counting the items it
 * left out unread (`unreadable`), as the receipts run answers.
 */
function tallyOf(result: unknown): JobTally | undefined {
  const summary = result as (Partial<JobTally> & { unreadable?: unknown }) | null | undefined;
  const count = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 0);
  const tally = { skipped: count(summary?.skipped) + count(summary?.unreadable), failed: count(summary?.failed) };
  return tally.skipped + tally.failed > 0 ? tally : undefined;
}

/**
 * What the data exports' run is handed: the archive writer over every domain's personal-data rules, and the push
 * from notifications (accounts imports neither).
 */
export const DATA_EXPORT_DEPS: ExportRunDeps = {
  writeArchive: (store, bucket, riderId, key, options) =>
    writeExportArchive(store, bucket, riderId, key, { ...options, personalData: PERSONAL_DATA }),
  notifyReady: sendDataExportReady,
};

export interface Schedule {
  /** Exactly as in wrangler.toml `[triggers] crons` (a test compares the two). */
  cron: string;
  job: string;
  /** A `JobTally`, or a summary with `unreadable`, makes the run's line `partial` (`tallyOf`). */
  run(store: Store, env: Env): Promise<unknown>;
  why: string;
}

/** Every Cron Trigger and the job it starts, each with its reason. */
export const SCHEDULES: Schedule[] = [
  {
    cron: '0 */6 * * *',
    job: 'event ingestion',
    run: async (store, env) => ingestionTally(await runIngestion(store, env, 'schedule')),
    why: 'the event sources change a few times a day; four reads a day keep listings fresh at little upstream load',
  },
  {
    cron: '*/15 * * * *',
    job: 'push receipts',
    run: (store, env) => runReceipts(store, env),
    why: 'the interface spec polls receipts every 15 minutes over tickets older than 30, so dead tokens stop being sent to',
  },
  {
    cron: '*/5 * * * *',
    job: 'trick reminders',
    run: (store, env) => runReminders(store, env),
    why: 'the interface spec runs the reminder worker every 5 minutes: a reminder goes out at most 5 minutes late',
  },
  {
    cron: '*/10 * * * *',
    job: 'event notifications',
    run: (store, env) => runEventNotifications(store, env),
    why: 'changes to followed events and subscription digests reach riders within 10 minutes; news of an event is not urgent to the minute, and digests wait up to 24 hours anyway',
  },
  {
    cron: '*/2 * * * *',
    job: 'AI credit reservation sweep',
    run: (store) => sweepStaleReservations(store),
    why: "a request that died mid-reply never keeps a rider's credits: its reservation is released within minutes of going stale",
  },
  {
    cron: '20 * * * *',
    job: 'premium monthly AI credits',
    run: (store, env) => grantMonthlyCredits(store, env),
    why: "once per calendar month per rider (keyed by month); hourly, so a rider who turns premium gets this month's within the hour",
  },
  {
    cron: '15 0 * * *',
    job: 'usage reconciliation',
    run: (store) => reconcileYesterday(store),
    why: 'the previous UTC day is complete a little after midnight; a quarter hour leaves room for settles still in flight',
  },
  {
    cron: '45 * * * *',
    job: 'media cleanup',
    run: (store, env) => runMediaCleanup(store, env),
    why: 'media never attached goes within an hour of its day running out, stale video uploads are aborted, so storage holds only what riders show',
  },
  {
    cron: '*/30 * * * *',
    job: 'moderation queue check',
    run: (store, env) => checkQueueAge(store, env),
    why: "an item past 20 hours is flagged while 4 of App Review's 24 are left; half-hourly, an alert comes within 20.5 hours of the first report",
  },
  {
    cron: '*/3 * * * *',
    job: 'moderation later checks',
    run: (store, env) => runContentChecks(store, env),
    why: 'content published while the moderation model was out is checked within minutes of its next try falling due, so a flagged post is held soon after the model answers again',
  },
  {
    cron: '* * * * *',
    job: 'data exports',
    run: (store, env) => runDataExports(store, env, DATA_EXPORT_DEPS),
    why: "a rider's export starts within a minute of asking, a build whose Worker died is taken up again once its lease runs out, and files past their 7 days are deleted",
  },
];

/**
 * Runs the job of one cron expression on a connection of its own, closed afterwards: as for a
 * request, a client kept at module scope breaks in workerd (worker/platform/db/connection.ts).
 */
export async function runSchedule(cron: string, env: Env): Promise<void> {
  const schedule = SCHEDULES.find((candidate) => candidate.cron === cron);
  if (!schedule) throw new Error(`No job is scheduled for cron "${cron}" (worker/schedules.ts).`);
  const connection = openRequestConnection(env);
  const started = performance.now();
  try {
    const tally = tallyOf(await schedule.run(connection.store, env));
    const durationMs = roundedMs(performance.now() - started);
    // A run that left work undone says so: `ok` would hide items no run will ever handle.
    const counts = tally ? { itemsSkipped: tally.skipped, itemsFailed: tally.failed } : {};
    log({ kind: 'cron', cron, job: schedule.job, outcome: tally ? 'partial' : 'ok', durationMs, ...counts });
  } catch (err) {
    const durationMs = roundedMs(performance.now() - started);
    log({ kind: 'cron', cron, job: schedule.job, outcome: 'failed', durationMs, error: describeError(err) });
    throw err;
  } finally {
    await connection.release();
  }
}
