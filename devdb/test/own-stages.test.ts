import { Long, ObjectId } from 'bson';
import { Aggregator, Context } from 'mingo';
import { describe, expect, it } from 'vitest';
import { GEO_CONTEXT } from '../src/geo-operators.js';
import { DEVDB_STAGES, withCompiledExpressions } from '../src/pipeline-stages.js';
import type { Doc } from '../src/values.js';

// devdb's own $match, $addFields, $project, $unwind and $lookup against mingo's stages over the same documents:
// the same documents with the same fields in the same order (or the same error), on and off their fast paths.

const A = new ObjectId('64b000000000000000000001');
const B = new ObjectId('64b000000000000000000002');
const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day));

const DOCS: Doc[] = [
  { _id: 1, userId: A, at: [at(1), at(2)], n: 4, tags: ['x', 'y'], variant: 'a', nested: { userId: A } },
  { _id: 2, userId: B, at: [], n: 2.5, tags: [], variant: 'b', nested: { userId: [A, B] } },
  { _id: 3, userId: 'install-1', at: null, n: null, tags: 'y', nested: null },
  { _id: 4, at: at(3), tags: [['x'], 'z'], variant: 7, nested: {} },
  { userId: null, at: '', n: new Long(3), tags: {}, variant: ['a'] },
  { _id: 6, userId: [A, 'install-1', 'nobody'], at: [at(4)], n: -0, tags: [null], when: at(1) },
  { _id: 7, userId: 5, at: [[at(5)], at(6)], n: 1, tags: [{ a: 1 }], when: at(1), key: { a: 1, b: 2 } },
];

const USERS: Doc[] = [
  { _id: A, createdAt: at(0), isTestAccount: true },
  { _id: B, createdAt: at(1) },
  { _id: 'install-1', createdAt: at(2), isBot: true },
  { _id: 5, createdAt: at(3) },
  { _id: 5.0, createdAt: at(4) },
  { _id: null, createdAt: at(5) },
  { _id: [A, 'x'], createdAt: at(6) },
  { _id: at(1), createdAt: at(7) },
  { _id: { b: 2, a: 1 }, createdAt: at(8) },
];

const PIPELINES: Doc[][] = [
  [{ $match: { variant: { $type: 'string' } } }],
  [{ $match: { n: { $gt: 1 }, userId: { $ne: null } } }],
  [{ $match: { $or: [{ variant: 'a' }, { tags: { $size: 0 } }] } }],
  [{ $match: { n: { $bogus: 1 } } }],
  [{ $addFields: { n: { $ifNull: ['$n', 0] }, extra: '$variant', gone: '$$REMOVE', _id: '$userId' } }],
  [{ $set: { tags: '$$REMOVE', first: { $arrayElemAt: ['$at', 0] } } }],
  [{ $addFields: { 'nested.x': 1 } }],
  [{ $project: { variant: 1, converted: { $gt: ['$n', 2] }, at: true } }],
  [{ $project: { z: '$n', a: '$missing', m: '$$ROOT._id', b: 2 } }],
  [{ $project: { m: 'text', n: 1 } }],
  [{ $project: { _id: 0, variant: 1 } }],
  [{ $project: { n: 0 } }],
  [{ $project: { n: { $bogus: 1 } } }],
  [{ $unwind: '$at' }],
  [{ $unwind: '$tags' }],
  [{ $unwind: { path: '$at' } }],
  [{ $unwind: '$at' }, { $unwind: '$at' }],
  [{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true } }],
  [{ $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'account' } }],
  [{ $lookup: { from: 'users', localField: 'nested.userId', foreignField: '_id', as: 'nested.account' } }],
  [{ $lookup: { from: 'users', localField: 'when', foreignField: '_id', as: 'account' } }],
  [{ $lookup: { from: 'users', localField: 'key', foreignField: '_id', as: 'account' } }],
  [{ $lookup: { from: 'users', localField: 'n', foreignField: '_id', as: 'n' } }],
  [{ $lookup: { from: 'nothing', localField: 'userId', foreignField: '_id', as: 'account' } }],
  [
    { $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'account' } },
    { $addFields: { account: { $arrayElemAt: ['$account', 0] } } },
    { $project: { createdAt: '$account.createdAt', excluded: { $eq: ['$account.isBot', true] } } },
  ],
  [{ $set: { 'nested.userId': 1, 'tags.a': 2, 'at.x': '$n' } }],
  [{ $addFields: { 'nested.x': '$n', n: 1, 'key.a': { $add: ['$key.a', 1] } } }],
];

/** Plain documents as lists of [field, value]: toStrictEqual then compares field order too. */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).map(([k, v]) => [k, ordered(v)]);
  }
  return value;
}

/**
 * mingo's `$lookup` lists hold undefined for each element of an array local value that matches nothing; MongoDB's
 * hold only the matching documents, as devdb's do.
 */
function withoutUnmatched(stage: Doc, docs: Doc[]): Doc[] {
  const as = (stage.$lookup as Doc | undefined)?.as as string | undefined;
  if (as === undefined) return docs;
  return docs.map((doc) => ({ ...doc, [as]: (doc[as] as unknown[]).filter((match) => match !== undefined) }));
}

/** mingo's stages one after another, their `$lookup` lists without mingo's undefined. */
function mingoRun(stages: Doc[], docs: Doc[], options: ConstructorParameters<typeof Aggregator>[1]): Doc[] {
  let out = docs;
  for (const stage of stages) out = withoutUnmatched(stage, new Aggregator([stage], options).run(out) as Doc[]);
  return out;
}

function outcome(stages: Doc[], own: boolean): { rows?: unknown; error?: string } {
  const options = {
    collectionResolver: (name: string) => (name === 'users' ? structuredClone(USERS) : []),
    context: own ? Context.from(GEO_CONTEXT, DEVDB_STAGES) : GEO_CONTEXT,
  };
  try {
    const docs = structuredClone(DOCS);
    const pipeline = stages.map(withCompiledExpressions);
    return { rows: ordered(own ? new Aggregator(pipeline, options).run(docs) : mingoRun(stages, docs, options)) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('devdb own stages', () => {
  it.each(PIPELINES.map((stages) => [JSON.stringify(stages), stages]))('give what mingo gives: %s', (_, stages) => {
    expect(outcome(stages, true)).toStrictEqual(outcome(stages, false));
  });

  it('are used for the forms they cover, so the comparisons above test them', () => {
    const own = (stage: Doc) => Object.keys(withCompiledExpressions(stage))[0] === '$devdbStage';
    expect(PIPELINES.map((stages) => stages.every(own))).toStrictEqual([
      ...[true, true, true, true, true, true, true],
      ...[true, true, false, false, false, true],
      ...[true, true, true, true, false],
      ...[true, true, true, true, true, true, true],
      ...[true, true],
    ]);
  });

  // The concise correlated form: mingo's stage runs the pipeline over the whole foreign collection, MongoDB over the
  // documents the plain form matches. So the reference is the plain form, then the pipeline over each list.
  const SUB_PIPELINES: Doc[][] = [
    [{ $project: { createdAt: 1 } }],
    [{ $match: { isBot: { $ne: true } } }, { $sort: { createdAt: -1 } }, { $addFields: { who: '$$who' } }],
    [{ $count: 'n' }],
    [{ $set: { createdAt: 0 } }],
    [{ $unionWith: { coll: 'users', pipeline: [{ $match: { isBot: true } }] } }],
  ];
  it.each(SUB_PIPELINES.map((sub) => [JSON.stringify(sub), sub]))(
    'run a $lookup pipeline over the documents localField/foreignField match: %s',
    (_, sub) => {
      const join = { from: 'users', localField: 'userId', foreignField: '_id', as: 'account' };
      const options = {
        collectionResolver: (name: string) => (name === 'users' ? structuredClone(USERS) : []),
        context: Context.from(GEO_CONTEXT, DEVDB_STAGES),
      };
      const stage = { $lookup: { ...join, let: { who: '$_id' }, pipeline: sub } };
      const own = new Aggregator([withCompiledExpressions(stage)], options).run(structuredClone(DOCS)) as Doc[];
      const plain = new Aggregator([withCompiledExpressions({ $lookup: join })], options).run(structuredClone(DOCS));
      const expected = (plain as Doc[]).map((doc) => ({
        ...doc,
        account: mingoRun(sub, structuredClone(doc.account) as Doc[], {
          ...options,
          context: GEO_CONTEXT,
          variables: { who: doc._id },
        }),
      }));
      expect(Object.keys(withCompiledExpressions(stage))).toStrictEqual(['$devdbStage']);
      expect(ordered(own)).toStrictEqual(ordered(expected));
    },
  );

  it('answer a client naming their operator as mingo answers an unknown stage', () => {
    expect(outcome([{ $devdbStage: { run: 1 } }], true)).toStrictEqual({
      error: 'unregistered pipeline operator $devdbStage.',
    });
  });
});
