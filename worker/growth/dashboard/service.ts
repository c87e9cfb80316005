import type { Document } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import { VALUE_DOMAINS, type ValueDomain } from './meaningful';
import { cohortPipeline, DAY_MS, qualityPipeline, retentionPipeline, WEEK_MS, wprPipeline } from './pipelines';

export interface WprWindow {
  from: Date;
  to: Date;
  riders: number;
  actions: number;
  domains: Record<ValueDomain, { riders: number; actions: number }>;
  excluded: number;
}

/** Weekly progressing riders: `weeks` rolling seven-day windows ending at `asOf`, oldest first. */
export async function weeklyProgressingRiders(store: Store, weeks: number, asOf: Date): Promise<WprWindow[]> {
  const from = new Date(asOf.getTime() - weeks * WEEK_MS);
  const rows = await store.analytics_events.aggregate(wprPipeline(from, asOf)).toArray();
  const byIndex = new Map(rows.map((row) => [row._id as number, row]));
  return Array.from({ length: weeks }, (_, index) => {
    const row: Document = byIndex.get(index) ?? {};
    return {
      from: new Date(from.getTime() + index * WEEK_MS),
      to: new Date(from.getTime() + (index + 1) * WEEK_MS),
      riders: row.riders ?? 0,
      actions: row.actions ?? 0,
      domains: Object.fromEntries(
        VALUE_DOMAINS.map((domain) => [
          domain,
          { riders: row[`${domain}Riders`] ?? 0, actions: row[`${domain}Actions`] ?? 0 },
        ]),
      ) as WprWindow['domains'],
      excluded: row.excluded ?? 0,
    };
  });
}

export const RETENTION_WINDOWS = [1, 2, 3, 4] as const;

export interface Cohort {
  from: Date;
  to: Date;
  riders: number;
  excluded: number;
  /** Retained riders per window W1..W4; null until the window has elapsed for every rider the week can hold. */
  windows: (number | null)[];
}

/** The Monday 00:00 UTC that starts the week holding `at`. */
function weekStart(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
}

/** Signup retention: the `weeks` cohort weeks up to the one holding `asOf`, oldest first. */
export async function signupRetention(store: Store, weeks: number, asOf: Date): Promise<Cohort[]> {
  const from = new Date(weekStart(asOf).getTime() - (weeks - 1) * WEEK_MS);
  const [cohorts, retained] = await Promise.all([
    store.users.aggregate(cohortPipeline(from, asOf)).toArray(),
    store.analytics_events.aggregate(retentionPipeline(from, asOf)).toArray(),
  ]);
  const sizes = new Map(cohorts.map((row) => [row._id as number, row]));
  const counts = new Map(retained.map((row) => [`${row._id.index}/${row._id.window}`, row.riders as number]));
  return Array.from({ length: weeks }, (_, index) => {
    const start = from.getTime() + index * WEEK_MS;
    const end = start + WEEK_MS;
    return {
      from: new Date(start),
      to: new Date(end),
      riders: sizes.get(index)?.riders ?? 0,
      excluded: sizes.get(index)?.excluded ?? 0,
      // A rider who signed up just before `end` has window w (days 7w−6 to 7w) elapsed at end + (7w+1) days.
      windows: RETENTION_WINDOWS.map((w) =>
        asOf.getTime() >= end + (7 * w + 1) * DAY_MS ? (counts.get(`${index}/${w}`) ?? 0) : null,
      ),
    };
  });
}

export interface Quality {
  from: Date;
  to: Date;
  events: number;
  complete: number;
  missing: { appVersion: number; buildNumber: number; sessionId: number; anonymousId: number; userId: number };
  excluded: number;
  target: number;
}

/** The data-quality share of authenticated mobile events received in the `days` before `asOf`. */
export async function dataQuality(store: Store, days: number, asOf: Date): Promise<Quality> {
  const from = new Date(asOf.getTime() - days * DAY_MS);
  const [row = {}] = await store.analytics_events.aggregate(qualityPipeline(from, asOf)).toArray();
  return {
    from,
    to: asOf,
    events: row.events ?? 0,
    complete: row.complete ?? 0,
    missing: {
      appVersion: row.appVersion ?? 0,
      buildNumber: row.buildNumber ?? 0,
      sessionId: row.sessionId ?? 0,
      anonymousId: row.anonymousId ?? 0,
      userId: row.userId ?? 0,
    },
    excluded: row.excluded ?? 0,
    target: LIMITS.analyticsDashboard.qualityTarget,
  };
}
