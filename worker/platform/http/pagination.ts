import { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import { readEach } from '../db/stored-values';
import { LIMITS } from '../limits';

/**
 * `?limit=&cursor=` as the product decisions fix them. The cursor is opaque to clients; inside it
 * is the last item's id, so pages stay stable while new items arrive.
 */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
  cursor: z
    .string()
    .optional()
    .transform((cursor, ctx) => {
      if (cursor === undefined || cursor === '') return undefined;
      const id = decodeCursor(cursor);
      if (!id) {
        ctx.addIssue({ code: 'custom', message: 'is not a cursor this API returned' });
        return z.NEVER;
      }
      return id;
    }),
});

function encodeCursor(id: ObjectId): string {
  return btoa(id.toHexString()).replace(/=+$/, '');
}

function decodeCursor(cursor: string): ObjectId | undefined {
  try {
    const hex = atob(cursor);
    return /^[0-9a-f]{24}$/.test(hex) ? new ObjectId(hex) : undefined;
  } catch {
    return undefined;
  }
}

/** Turns `limit + 1` fetched rows (newest id first) into a page and the next cursor. */
export function toPage<T extends { _id: ObjectId }, V>(rows: T[], limit: number, view: (row: T) => V) {
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(items[items.length - 1]!._id) : null;
  return { items: items.map(view), nextCursor };
}

/**
 * As toPage, for stored rows read one by one (`read`, through readEach): a row that cannot be read is left out of
 * the page with its event line, and the cursor still moves past it. A cursor names an ObjectId: rows older code
 * stored with an `_id` of another type sort after every ObjectId, so a page reaching them is the last.
 */
export function toReadPage<T extends { _id?: unknown }, R, V>(
  collection: string,
  rows: T[],
  limit: number,
  read: (row: T) => R | undefined,
  view: (read: R) => V,
) {
  const fetched = rows.slice(0, limit);
  const last = fetched.map((row) => row._id).findLast((id) => id instanceof ObjectId);
  const nextCursor = rows.length > limit && last instanceof ObjectId ? encodeCursor(last) : null;
  return { items: readEach(collection, fetched, read).map(view), nextCursor };
}

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
