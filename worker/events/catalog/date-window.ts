import { LIMITS } from '../../platform/limits';

/** A span of UTC calendar days: `from` is a day's 00:00 UTC, `to` the 00:00 UTC after the last day. */
export interface DateWindow {
  from: Date;
  to: Date;
}

/** The named windows of the `date` parameter, each counted in UTC calendar days from today. */
export const NAMED_WINDOWS = ['today', 'weekend', 'week', 'month'] as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function startOfUtcDay(at: Date): number {
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
}

/** 00:00 UTC of a `YYYY-MM-DD` that names a real calendar day, else undefined. */
function parseDay(text: string): number | undefined {
  const match = DAY.exec(text);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().slice(0, 10) === text ? ms : undefined;
}

const span = (fromMs: number, days: number): DateWindow => ({
  from: new Date(fromMs),
  to: new Date(fromMs + days * DAY_MS),
});

/** The default window (the interface spec: the next 30 days): today and the 29 UTC days after it. */
export function defaultWindow(now: Date): DateWindow {
  return span(startOfUtcDay(now), LIMITS.events.defaultWindowDays);
}

/**
 * The window a `date` value names, on UTC calendar boundaries (the interface spec, list rule 5),
 * or undefined when the value is not one the API accepts.
 */
export function dateWindow(value: string, now: Date): DateWindow | undefined {
  const today = startOfUtcDay(now);
  switch (value) {
    case 'today':
      return span(today, 1);
    case 'weekend': {
      // Saturday and Sunday: this weekend's while it lasts, else the coming one.
      const weekday = now.getUTCDay();
      return span(today + (weekday === 0 ? -1 : 6 - weekday) * DAY_MS, 2);
    }
    case 'week':
      return span(today, LIMITS.events.weekDays);
    case 'month':
      return defaultWindow(now);
  }
  const [first, last = first] = value.split('..');
  if (value.split('..').length > 2 || first === undefined) return undefined;
  const from = parseDay(first);
  const lastDay = parseDay(last);
  if (from === undefined || lastDay === undefined || lastDay < from) return undefined;
  return { from: new Date(from), to: new Date(lastDay + DAY_MS) };
}
