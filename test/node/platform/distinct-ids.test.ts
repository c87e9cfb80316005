import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { distinctIds } from '../../../worker/platform/db/distinct-ids';

describe('distinctIds', () => {
  it('keeps each id once, in first-seen order, however many ObjectId objects hold it', () => {
    const a = new ObjectId();
    const b = new ObjectId();
    expect(distinctIds([a, b, new ObjectId(a.toHexString())])).toEqual([a, b]);
  });

  it('reads ids stored as hex strings as the same id, and leaves out what names no document', () => {
    const a = new ObjectId();
    const b = new ObjectId();
    expect(distinctIds([a.toHexString(), a, undefined, null, '', 12, {}, b.toHexString().toUpperCase()])).toEqual([
      a,
      b,
    ]);
  });
});
