import { ObjectId } from 'mongodb';
import type { SpotDoc } from '../db/documents';
import type { Store } from '../db/store';
import { LIMITS } from '../limits';
import type { Position, SyncCursor } from './position';

// The browser extension's spot sync: one walk over spot changes and deletions in (time, _id) order.

export interface SyncPage {
  spots: SpotDoc[];
  deletedIds: ObjectId[];
  next: SyncCursor;
  hasMore: boolean;
  reset: boolean;
}

type Change = { at: Position; spot?: SpotDoc; deletedId?: ObjectId };

const DAY_MS = 86_400_000;
const LOWEST_ID = new ObjectId('000000000000000000000000');

const before = (a: Position, b: Position) => a.n < b.n || (a.n === b.n && a.id.toHexString() < b.id.toHexString());

/** Strictly after the position, so two changes in the same millisecond are told apart by id. */
const after = (field: string, from: Position | undefined) =>
  from ? { $or: [{ [field]: { $gt: new Date(from.n) } }, { [field]: new Date(from.n), _id: { $gt: from.id } }] } : {};

/**
 * Changes after `since`, oldest first. Without `since`, or when deletions the client has not seen
 * may already have expired (LIMITS.spotTombstoneDays), the walk restarts as a full sync (`reset`).
 */
export async function syncSpots(
  store: Store,
  since: SyncCursor | undefined,
  limit: number,
  now = Date.now(),
): Promise<SyncPage> {
  const reset = !since || since.coveredFrom < now - LIMITS.spotTombstoneDays * DAY_MS;
  const from = reset ? undefined : since;
  const [spots, tombstones] = await Promise.all([
    store.spots
      .find(after('updatedAt', from))
      .sort({ updatedAt: 1, _id: 1 })
      .limit(limit + 1)
      .toArray(),
    store.spot_tombstones
      .find(after('deletedAt', from))
      .sort({ deletedAt: 1, _id: 1 })
      .limit(limit + 1)
      .toArray(),
  ]);
  const changes: Change[] = [
    ...spots.map((spot) => ({ at: { n: spot.updatedAt.getTime(), id: spot._id }, spot })),
    // A full sync starts from nothing, so deletions before it mean nothing to the client.
    ...(reset ? [] : tombstones.map((t) => ({ at: { n: t.deletedAt.getTime(), id: t._id }, deletedId: t._id }))),
  ].sort((a, b) => (before(a.at, b.at) ? -1 : before(b.at, a.at) ? 1 : 0));
  const page = changes.slice(0, limit);
  const hasMore = changes.length > limit;
  const last = page[page.length - 1]?.at ?? from ?? { n: 0, id: LOWEST_ID };
  // The last page stops short of the settle window, so late-stored writes stamped inside it are sent again.
  const settled = { n: now - LIMITS.spotSyncSettleMs, id: LOWEST_ID };
  let at = !hasMore && before(settled, last) ? settled : last;
  if (from && before(at, from)) at = from;
  const coveredFrom = Math.max(reset ? now : since!.coveredFrom, at.n);
  return {
    spots: page.flatMap((c) => (c.spot ? [c.spot] : [])),
    deletedIds: page.flatMap((c) => (c.deletedId ? [c.deletedId] : [])),
    next: { ...at, coveredFrom },
    hasMore,
    reset,
  };
}
