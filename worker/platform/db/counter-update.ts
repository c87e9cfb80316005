import type { Document } from 'mongodb';
import { incrementedNumber } from './stored-expressions';

/**
 * An update pipeline adding `by` to each counter as `$inc` would, but over a counter stored as a numeric
 * string (`"12"`), missing or null too: `$inc` refuses a string with a server error. One atomic pipeline
 * update, so concurrent increments stay exact; the counter is stored as a number afterwards. A value that
 * reads as no number at all counts from 0 (worker/platform/db/stored-expressions.ts reads it).
 */
export function incrementCounters(by: Record<string, number>): Document[] {
  const set = Object.fromEntries(
    Object.entries(by).map(([field, step]) => [field, incrementedNumber(`$${field}`, step)]),
  );
  return [{ $set: set }];
}
