import { z } from '@hono/zod-openapi';

/**
 * Cursors for lists sorted on something other than `_id` alone (worker/platform/http/pagination.ts covers
 * that case): the last item's sort key as opaque base64url JSON, so pages stay stable while
 * items are added.
 */
export type SortKey = (string | number | null)[];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeKeyset(key: SortKey): string {
  const bytes = encoder.encode(JSON.stringify(key));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function decodeKeyset(cursor: string): unknown {
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    return JSON.parse(decoder.decode(Uint8Array.from(binary, (char) => char.charCodeAt(0))));
  } catch {
    return undefined;
  }
}

/** A `cursor` query parameter whose key `parse` accepts; anything else is a 400 naming `cursor`. */
export function keysetCursor<T>(parse: (key: unknown) => T | undefined) {
  return z
    .string()
    .optional()
    .transform((cursor, ctx) => {
      if (cursor === undefined || cursor === '') return undefined;
      const key = parse(decodeKeyset(cursor));
      if (key === undefined) {
        ctx.addIssue({ code: 'custom', message: 'is not a cursor this API returned' });
        return z.NEVER;
      }
      return key;
    });
}

/** Turns `limit + 1` fetched rows into a page whose cursor is the last item's key. */
export function toKeysetPage<T, V>(rows: T[], limit: number, keyOf: (row: T) => SortKey, view: (row: T) => V) {
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeKeyset(keyOf(items[items.length - 1]!)) : null;
  return { items: items.map(view), nextCursor };
}
