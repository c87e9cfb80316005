import { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
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

/** The opaque cursor of a page ending at `id`. */
export function encodeCursor(id: ObjectId): string {
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

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
