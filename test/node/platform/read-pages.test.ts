import { ObjectId } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { encodeKeyset } from '../../../worker/platform/http/keyset-cursor';
import { encodeCursor } from '../../../worker/platform/http/pagination';
import { toReadKeysetPage, toReadPage } from '../../../worker/platform/http/read-pages';

// Pages of stored documents: cut and cursored on the rows fetched, then read, so an unreadable row never ends the
// walk early nor moves where it goes on.

const [a, b, c] = [new ObjectId(), new ObjectId(), new ObjectId()];
const show = (row: { _id: unknown; name?: unknown }) => (typeof row.name === 'string' ? { name: row.name } : undefined);

describe('toReadPage', () => {
  it('leaves out a row it cannot read and still takes the cursor from the last row fetched', () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const page = toReadPage('things', [{ _id: a, name: 'a' }, { _id: b }, { _id: c, name: 'c' }], 2, show);
    expect(page).toEqual({ items: [{ name: 'a' }], nextCursor: encodeCursor(b) });
    vi.restoreAllMocks();
  });

  it('takes the cursor from the last row with a usable id, and none on the last page', () => {
    const rows = [
      { _id: a, name: 'a' },
      { _id: 'x', name: 'x' },
      { _id: c, name: 'c' },
    ];
    expect(toReadPage('things', rows, 2, show).nextCursor).toBe(encodeCursor(a));
    expect(toReadPage('things', rows, 3, show).nextCursor).toBeNull();
  });
});

describe('toReadKeysetPage', () => {
  it('keys the cursor on the last fetched row that has a key', () => {
    const rows = [
      { _id: a, name: 'a', slug: 'a' },
      { _id: b, name: 'b' },
      { _id: c, name: 'c', slug: 'c' },
    ];
    const keyOf = (row: { slug?: string }) => (row.slug ? [row.slug] : undefined);
    expect(toReadKeysetPage('things', rows, 2, keyOf, show)).toEqual({
      items: [{ name: 'a' }, { name: 'b' }],
      nextCursor: encodeKeyset(['a']),
    });
  });
});
