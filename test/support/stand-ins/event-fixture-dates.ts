// Fixture dates are offsets in days from today (UTC), so past, running and future events stay so.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Today's UTC calendar date at midnight, or the one given (parser tests pin it). */
export function fixtureBase(today = new Date()): Date {
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
}

/** `YYYY-MM-DD` of the day `offset` days from `base`. */
export function dayOf(base: Date, offset: number): string {
  return new Date(base.getTime() + offset * DAY_MS).toISOString().slice(0, 10);
}

/** "December 17, 2026", as both sources print dates. */
export function longDate(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  });
}
