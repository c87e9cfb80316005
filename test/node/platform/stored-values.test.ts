import { Decimal128, Int32, Long, ObjectId } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createdAtOf,
  idForms,
  readArray,
  readBoolean,
  readCount,
  readDate,
  readEach,
  readId,
  readIds,
  readNumber,
  readString,
  readStrings,
  sameId,
  updatedAtOf,
} from '../../../worker/platform/db/stored-values';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('stored dates', () => {
  const when = new Date('2021-03-04T05:06:07.000Z');
  it('read from a Date, an ISO string, a locale string and epoch seconds or milliseconds', () => {
    expect(readDate(when)).toEqual(when);
    expect(readDate('2021-03-04T05:06:07.000Z')).toEqual(when);
    expect(readDate('Thu Mar 04 2021 05:06:07 GMT+0000 (Coordinated Universal Time)')).toEqual(when);
    expect(readDate(when.getTime())).toEqual(when);
    expect(readDate(String(when.getTime()))).toEqual(when);
    expect(readDate(when.getTime() / 1000)).toEqual(when);
    expect(readDate(Long.fromNumber(when.getTime()))).toEqual(when);
  });
  it('answer nothing for what names no time', () => {
    for (const value of [undefined, null, '', 'soon', {}, [], true, Number.NaN, new Date('x'), 1e20])
      expect(readDate(value)).toBeUndefined();
  });
  it('fall back to the id’s time, then the epoch, for a document without a readable creation date', () => {
    const id = ObjectId.createFromTime(1_600_000_000);
    expect(createdAtOf({ _id: id, createdAt: 'never' })).toEqual(new Date(1_600_000_000_000));
    expect(createdAtOf({ _id: id.toHexString() })).toEqual(new Date(1_600_000_000_000));
    expect(createdAtOf({ _id: 'legacy-7' })).toEqual(new Date(0));
    expect(updatedAtOf({ _id: id, createdAt: when.toISOString(), updatedAt: null })).toEqual(when);
  });
});

describe('stored ids', () => {
  const id = new ObjectId();
  it('read from an ObjectId or its hex string in either case', () => {
    expect(readId(id)).toBe(id);
    expect(readId(id.toHexString())?.equals(id)).toBe(true);
    expect(readId(id.toHexString().toUpperCase())?.equals(id)).toBe(true);
  });
  it('answer nothing for other strings and values', () => {
    for (const value of [undefined, null, '', 'abc', 12, {}, [id]]) expect(readId(value)).toBeUndefined();
  });
  it('lists keep the readable ids, and one id where a list belongs is a list of one', () => {
    expect(readIds([id, id.toHexString(), 'x', null]).map(String)).toEqual([String(id), String(id)]);
    expect(readIds(id.toHexString()).map(String)).toEqual([String(id)]);
    expect(readIds(undefined)).toEqual([]);
  });
  it('match both stored forms', () => {
    expect(idForms(id)).toEqual([id, id.toHexString()]);
    expect(sameId(id.toHexString(), id)).toBe(true);
    expect(sameId(new ObjectId(), id)).toBe(false);
  });
});

describe('stored numbers', () => {
  it('read from numbers, numeric strings and BSON wrappers', () => {
    expect(readNumber(12)).toBe(12);
    expect(readNumber('12')).toBe(12);
    expect(readNumber(' 4.5 ')).toBe(4.5);
    expect(readNumber(Long.fromNumber(7))).toBe(7);
    expect(readNumber(new Int32(3))).toBe(3);
    expect(readNumber(Decimal128.fromString('2.5'))).toBe(2.5);
  });
  it('answer nothing for what is no number', () => {
    for (const value of [undefined, null, '', 'twelve', {}, [], Number.NaN, Number.POSITIVE_INFINITY])
      expect(readNumber(value)).toBeUndefined();
  });
  it('counts are whole and never below their floor', () => {
    expect(readCount('5.9')).toBe(5);
    expect(readCount(-3)).toBe(0);
  });
});

describe('stored texts and lists', () => {
  it('texts read numbers as their text, cut very long ones, and drop empty ones', () => {
    expect(readString(12)).toBe('12');
    expect(readString('x'.repeat(10_000), 100)).toHaveLength(100);
    expect(readString('')).toBeUndefined();
    expect(readString('', undefined, true)).toBe('');
    expect(readString({})).toBeUndefined();
  });
  it('lists read one value as a list of it and an index-keyed object as its values', () => {
    expect(readArray('skate')).toEqual(['skate']);
    expect(readArray({ 0: 'a', 1: 'b' })).toEqual(['a', 'b']);
    expect(readArray({})).toEqual([]);
    expect(readArray(null)).toEqual([]);
    expect(readStrings(['a', 3, null, {}])).toEqual(['a', '3']);
  });
  it('booleans read their common stored forms', () => {
    expect(readBoolean('true')).toBe(true);
    expect(readBoolean(0)).toBe(false);
    expect(readBoolean('maybe')).toBeUndefined();
  });
});

describe('reading a list of documents', () => {
  it('leaves out a document it cannot read, with an event line naming only its collection and id', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((text: unknown) => lines.push(String(text)));
    const good = { _id: new ObjectId(), name: 'Ledge' };
    const bad = { _id: 'legacy-1', name: 'secret content' };
    const read = readEach('spots', [good, bad], (doc) => {
      if (typeof doc._id !== 'object') throw new TypeError('unreadable');
      return doc.name;
    });
    expect(read).toEqual(['Ledge']);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      event: 'store.document.unreadable',
      collection: 'spots',
      id: 'legacy-1',
      reason: 'TypeError',
    });
    expect(lines[0]).not.toContain('secret');
  });
});
