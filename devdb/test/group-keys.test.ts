import { Long, ObjectId } from 'bson';
import { HashMap } from 'mingo/util';
import { describe, expect, it } from 'vitest';
import { KeyedEntries } from '../src/group-keys.js';

// The group and lookup key map against mingo's HashMap: the same keys equal, the same first-seen order.

const A = new ObjectId('64b000000000000000000001');
const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day));

describe('devdb keyed entries', () => {
  it('find keys by mingo equality and keep them in first-seen order', () => {
    const entries = new KeyedEntries<number>(true);
    const keys: unknown[] = [
      'a',
      1,
      -0,
      Number.NaN,
      null,
      A,
      new ObjectId(A.toHexString()),
      at(1),
      new Date(at(1)),
      new Date(Number.NaN),
      new Date(Number.NaN),
      { i: 1, u: A },
      { i: 1, u: new ObjectId(A.toHexString()) },
      { i: 1, u: undefined },
      { i: 1, u: null },
      { i: 2, u: A },
      { i: '1', u: A },
      { i: 1, u: [A] },
      { i: 1, u: [A] },
      [1],
      new Long(1),
      true,
      's1:a',
    ];
    const mingo = HashMap.init<unknown, number>();
    const mingoFirsts: number[] = [];
    for (const [i, key] of keys.entries()) {
      if (entries.get(key) === undefined) entries.add(key, i);
      if (!mingo.has(key)) {
        mingo.set(key, i);
        mingoFirsts.push(i);
      }
    }
    expect(entries.entries().map(([, i]) => i)).toStrictEqual(mingoFirsts);
    expect(mingoFirsts).toStrictEqual([0, 1, 2, 3, 4, 5, 7, 9, 10, 11, 13, 14, 15, 16, 17, 19, 20, 21, 22]);
  });
});
