import { readEach, readId } from '../db/stored-values';
import { encodeKeyset, type SortKey } from './keyset-cursor';
import { encodeCursor } from './pagination';

// Pages of stored documents, read as they are shown: the page is cut and its cursor taken from the rows as fetched,
// then each row is read (worker/platform/db/stored-values.ts readEach), so a row left out as unreadable never
// shortens the walk nor moves where the next page starts.

/** As toPage (worker/platform/http/pagination.ts) over `limit + 1` rows newest id first, each shown through `show`. */
export function toReadPage<T extends { _id?: unknown }, V>(
  collection: string,
  rows: readonly T[],
  limit: number,
  show: (row: T) => V | undefined,
) {
  const fetched = rows.slice(0, limit);
  const last = rows.length > limit ? lastOf(fetched, (row) => readId(row._id)) : undefined;
  return { items: readEach(collection, fetched, show), nextCursor: last ? encodeCursor(last) : null };
}

/** As toKeysetPage (worker/platform/http/keyset-cursor.ts): the cursor is the last row's key that `keyOf` can give. */
export function toReadKeysetPage<T, V>(
  collection: string,
  rows: readonly T[],
  limit: number,
  keyOf: (row: T) => SortKey | undefined,
  show: (row: T) => V | undefined,
) {
  const fetched = rows.slice(0, limit);
  const last = rows.length > limit ? lastOf(fetched, keyOf) : undefined;
  return { items: readEach(collection, fetched, show), nextCursor: last ? encodeKeyset(last) : null };
}

/** The position of the last row that has one (a row with no usable position is passed over by the walk anyway). */
function lastOf<T, P>(rows: readonly T[], positionOf: (row: T) => P | undefined): P | undefined {
  for (let index = rows.length - 1; index >= 0; index--) {
    const position = positionOf(rows[index]!);
    if (position !== undefined) return position;
  }
  return undefined;
}
