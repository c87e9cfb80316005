import { inspect } from 'node:util';
import { Long, ObjectId } from 'bson';
import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import { compileQuery, literalPrefix } from '../src/filter-compile.js';
import { compileFilter } from '../src/query.js';
import type { Doc } from '../src/values.js';

// devdb's compiled filter against mingo's Query over the same documents: the same documents match, or the same
// error is thrown, for values on and off the compiled paths (missing, null, arrays, documents, other BSON types).

const A = new ObjectId('64b000000000000000000001');
const B = new ObjectId('64b000000000000000000002');
const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day));

const DOCS: Doc[] = [
  { _id: 1, name: 'trick_landed', platform: 'server', userId: A, n: 4, at: at(1), words: ['ann', 'bo'] },
  { _id: 2, name: 'spot_saved', platform: 'ios', userId: null, n: 2.5, at: at(9), words: [] },
  { _id: 3, name: 'ai_response_completed', platform: 'server', properties: { substantive: true }, n: -0 },
  { _id: 4, name: 'ai_response_completed', platform: 'server', properties: { substantive: 'yes' }, n: NaN },
  { _id: 5, platform: 'android', userId: B, n: '4', at: '2026-01-02', words: ['Annie', 7] },
  { _id: 6, name: ['trick_landed'], platform: ['server'], n: [1, 5], at: [at(2)], properties: [{ substantive: true }] },
  { _id: 7, name: 'spot_saved', userId: A.toHexString(), n: new Long(4), at: new Date(Number.NaN), adoptedBy: A },
  { _id: 8, name: { first: 'x' }, properties: null, n: 1e21, words: 'annex', adoptedBy: null, variant: 'b' },
  { _id: 9, name: '', platform: 'web', properties: { substantive: { deep: 1 } }, n: Number.POSITIVE_INFINITY },
  { _id: 10, properties: 'text', at: at(30), variant: ['a'], words: [['ann']] },
];

const FILTERS: Doc[] = [
  { name: 'spot_saved' },
  { name: { $eq: 'trick_landed' } },
  { name: { $ne: 'spot_saved' } },
  { userId: { $ne: null } },
  { userId: null },
  { userId: A },
  { userId: { $in: [A, B] } },
  { userId: { $nin: [A, null] } },
  { name: { $in: ['spot_saved', 'trick_landed', null] } },
  { n: 4 },
  { n: -0 },
  { n: 0 },
  { n: Number.NaN },
  { n: { $gt: 2 } },
  { n: { $gte: 2.5, $lt: 5 } },
  { n: { $lte: '4' } },
  { n: { $gt: null } },
  { at: { $gte: at(1), $lt: at(10) } },
  { at: { $lt: '2026-02-01' } },
  { at: at(9) },
  { name: { $gt: 'spot' } },
  { adoptedBy: { $exists: false } },
  { adoptedBy: { $exists: true } },
  { 'properties.substantive': { $exists: true } },
  { 'properties.substantive': true },
  { 'properties.substantive': { $ne: true } },
  { 'properties.substantive.deep': 1 },
  { variant: { $type: 'string' } },
  { variant: { $type: 2 } },
  { n: { $type: 'number' } },
  { words: { $regex: '^an' } },
  { words: { $regex: /^an/ } },
  { words: { $regex: '^An', $options: 'i' } },
  { words: { $regex: 'n' } },
  { words: /^ann$/ },
  { name: { $regex: '^trick\\_' } },
  { name: { $regex: '^spot_(saved)' } },
  { name: { $regex: /^s/g } },
  {
    $or: [
      { name: { $in: ['trick_landed', 'spot_saved'] }, platform: 'server' },
      { name: 'ai_response_completed', platform: 'server', 'properties.substantive': true },
      { name: { $in: ['spot_saved'] }, platform: { $ne: 'server' } },
    ],
  },
  { $and: [{ n: { $gt: 0 } }, { $or: [{ userId: A }, { words: { $size: 0 } }] }] },
  { name: { first: 'x' } },
  { name: ['trick_landed'] },
  { n: { $not: { $gt: 3 } } },
  { 'words.0': 'ann' },
  { $nor: [{ n: 4 }] },
  { $expr: { $gt: ['$n', 3] } },
  { n: { $gt: 3, $bogus: 1 } },
  { $bogus: 1 },
  { $or: { n: 1 } },
  { constructor: 'x' },
];

function outcome(test: () => (doc: Doc) => boolean): { ids?: unknown[]; error?: string } {
  try {
    const matches = test();
    return { ids: DOCS.filter((doc) => matches(doc)).map((doc) => doc._id) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('devdb compiled filters', () => {
  it.each(FILTERS.map((filter) => [inspect(filter, { depth: 6, breakLength: Number.POSITIVE_INFINITY }), filter]))(
    'match what mingo matches: %s',
    (_, filter) => {
      const mingo = outcome(() => {
        const query = new Query(filter);
        return (doc) => query.test(doc);
      });
      expect(outcome(() => compileQuery(filter, {}))).toStrictEqual(mingo);
      expect(outcome(() => compileFilter(filter))).toStrictEqual(mingo);
    },
  );

  it('read an anchored pattern of plain characters as a prefix, nothing else', () => {
    expect(literalPrefix(/^ann/)).toBe('ann');
    expect(literalPrefix(/^a\.b-c/)).toBe('a.b-c');
    expect(literalPrefix(/^a\d/)).toBeUndefined();
    expect(literalPrefix(/^a.b/)).toBeUndefined();
    expect(literalPrefix(/^ann/i)).toBeUndefined();
    expect(literalPrefix(/^ann/m)).toBeUndefined();
    expect(literalPrefix(/ann/)).toBeUndefined();
    expect(literalPrefix(/^an+/)).toBeUndefined();
  });
});
