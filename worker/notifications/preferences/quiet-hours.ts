import type { QuietHours } from '../documents';

/** Minutes after local midnight of `at` in `timeZone`, read from the runtime's time-zone data (DST included). */
export function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(at)
    .reduce<Record<string, string>>((all, part) => Object.assign(all, { [part.type]: part.value }), {});
  return Number(parts.hour) * 60 + Number(parts.minute);
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether `at` falls inside the quiet hours, on the local wall clock of their time zone: the window
 * includes its start and excludes its end, spans midnight when start is after end, and is empty
 * when start equals end (the way to have no quiet hours).
 */
export function isQuietAt(quietHours: QuietHours, at: Date): boolean {
  const now = localMinutes(at, quietHours.timezone);
  const start = minutesOf(quietHours.start);
  const end = minutesOf(quietHours.end);
  if (start === end) return false;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** Whether the runtime knows `zone` as an IANA time zone. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
