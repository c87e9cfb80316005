/** One `$inc` of a day's row of `legacy_token_usage`. */
export type DayIncrement = { day: string; requests: number };

/** Legacy-token requests counted in memory per UTC day, until one write per day stores them all. */
export class LegacyUsageBatch {
  private readonly perDay = new Map<string, number>();
  private counted = 0;

  /** Counts one request on `day` (YYYY-MM-DD, UTC) and answers how many the batch now holds. */
  add(day: string): number {
    this.perDay.set(day, (this.perDay.get(day) ?? 0) + 1);
    this.counted += 1;
    return this.counted;
  }

  /** The writes that store the batch: one per day it counted (two only across midnight). */
  increments(): DayIncrement[] {
    return [...this.perDay].map(([day, requests]) => ({ day, requests }));
  }
}
