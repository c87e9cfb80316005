import type { Document } from 'mongodb';
import { incrementedNumber } from '../../platform/db/stored-expressions';
import type { FeedPostDoc } from '../documents';

export type CountDelta = Partial<Record<keyof FeedPostDoc['counts'], number>>;

/**
 * The update pipeline moving a post's counts by `delta`: the three counts set whole, from the stored ones read as
 * numbers, since `$inc` fails on a count older code stored as a string ("12") and a dotted `$set` would spread
 * into a `counts` stored as a list.
 */
export function countsMovedBy(delta: CountDelta): Document[] {
  const counts = Object.fromEntries(
    (['love', 'respect', 'comments'] as const).map((field) => [
      field,
      incrementedNumber(`$counts.${field}`, delta[field] ?? 0),
    ]),
  );
  return [{ $set: { counts: { $mergeObjects: [counts] }, updatedAt: new Date() } }];
}
