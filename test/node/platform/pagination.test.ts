import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { PageQuery, toPage } from '../../../worker/platform/http/pagination';

const cursorOf = (page: { nextCursor: string | null }) => PageQuery.parse({ cursor: page.nextCursor ?? '' }).cursor;

describe('toPage', () => {
  it('answers the page and a cursor naming its last item when more rows follow', () => {
    const ids = [new ObjectId(), new ObjectId(), new ObjectId()];
    const page = toPage(
      ids.map((_id) => ({ _id })),
      2,
      (row) => row._id.toHexString(),
    );
    expect(page.items).toEqual([ids[0]!.toHexString(), ids[1]!.toHexString()]);
    expect(cursorOf(page)).toEqual(ids[1]);
    expect(
      toPage(
        ids.map((_id) => ({ _id })),
        3,
        (row) => row._id,
      ).nextCursor,
    ).toBeNull();
  });

  it('moves on past a last item whose id older code stored as a hex string', () => {
    const stored = new ObjectId();
    const rows = [{ _id: new ObjectId() }, { _id: stored.toHexString() }, { _id: new ObjectId() }];
    const page = toPage(rows as unknown as { _id: ObjectId }[], 2, () => 'shown');
    expect(cursorOf(page)).toEqual(stored);
  });

  it('moves on from the last item with a usable id when the last one has none', () => {
    const first = new ObjectId();
    const rows = [{ _id: first }, { _id: 42 }, { _id: new ObjectId() }];
    const page = toPage(rows as unknown as { _id: ObjectId }[], 2, () => 'shown');
    expect(cursorOf(page)).toEqual(first);
  });
});
