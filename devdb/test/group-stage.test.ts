import { Aggregator } from 'mingo';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../src/pipeline.js';
import { Store } from '../src/store.js';
import type { Doc } from '../src/values.js';

// devdb's own $group (a document at a time, compiled expressions) against mingo's $group over the same documents:
// the same rows in the same order, or the same error, including for values off the compiled fast paths.

const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day));
const DOCS: Doc[] = [
  { _id: 1, name: 'a', n: 4, at: at(1), tags: ['x', 'y'], user: { role: 'admin' } },
  { _id: 2, name: 'b', n: 2.5, at: at(9), tags: [], user: { role: null } },
  { _id: 3, name: 'a', n: null, at: at(3), user: null },
  { _id: 4, name: 'c', at: at(15), tags: ['y'], user: { isBot: true } },
  { _id: 5, name: 'b', n: -7, at: at(22), tags: 'y', user: [{ role: 'admin' }, { role: 'rider' }] },
  { _id: 6, name: '', n: 0, at: null, tags: [['x']], user: { role: '' } },
];

const GROUPS: Doc[] = [
  { _id: '$name', n: { $sum: '$n' }, c: { $sum: 1 }, avg: { $avg: '$n' }, k: { $count: {} } },
  { _id: { $floor: { $divide: [{ $subtract: ['$at', at(0)] }, 7 * 86_400_000] } }, ids: { $push: '$_id' } },
  { _id: null, lo: { $min: '$n' }, hi: { $max: '$n' }, first: { $first: '$name' }, last: { $last: '$tags' } },
  { _id: { $in: ['y', { $ifNull: ['$tags', []] }] }, n: { $sum: { $cond: [{ $gt: ['$n', 0] }, '$n', 100] } } },
  {
    _id: { $eq: ['$tags', 'y'] },
    a: { $push: { $ne: ['$name', 'a'] } },
    b: { $push: { $arrayElemAt: ['$tags', -1] } },
  },
  {
    _id: {
      $let: {
        vars: { user: { $ifNull: ['$user', {}] } },
        in: { $or: [{ $eq: ['$$user.role', 'admin'] }, { $eq: ['$$user.isBot', true] }] },
      },
    },
    names: {
      $push: {
        $cond: {
          if: { $and: ['$name', { $not: ['$n'] }] },
          // biome-ignore lint/suspicious/noThenProperty: the shape of MongoDB's $cond document form
          then: '$name',
          else: '$$ROOT._id',
        },
      },
    },
  },
  { _id: { a: '$name', b: { $ceil: '$n' } }, x: { $max: '$tags' }, y: { $min: '$at' } },
  // Inside a $let, values off the fast paths go to mingo with the variables bound (arrays, strings, missing).
  {
    _id: { $let: { vars: { t: '$tags', u: '$user' }, in: { $in: ['y', '$$t'] } } },
    roles: { $push: { $let: { vars: { u: '$user' }, in: { $eq: ['$$u.role', 'admin'] } } } },
  },
  { _id: { $let: { vars: { t: '$tags' }, in: { $gt: ['$$t', 'x'] } } }, n: { $sum: { $floor: '$n' } } },
  { _id: { $lte: ['$at', at(10)] }, a: { $push: { $lt: ['$n', '$name'] } }, b: { $push: { $gte: ['$user', null] } } },
  { _id: '$user', n: { $sum: '$n' } },
  // Keys by mingo's equality: missing, null and '' apart, dates by time, documents of scalars or not.
  { _id: { role: '$user.role', at: '$at' }, c: { $sum: 1 } },
  { _id: '$at', ids: { $push: '$_id' } },
  { _id: { tags: '$tags', n: '$n' }, ids: { $push: '$_id' } },
  // Off the fast paths: mingo's errors and its handling of arrays, strings and dates.
  { _id: { $floor: '$name' } },
  { _id: { $divide: ['$n', 0] } },
  { _id: { $subtract: ['$at', 1] } },
  { _id: { $in: ['x', '$tags'] } },
  { _id: null, s: { $stdDevPop: '$n' }, p: { $push: '$n' } },
];

function outcome(run: () => Doc[]): { rows?: Doc[]; error?: string } {
  try {
    return { rows: run() };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

describe('devdb $group', () => {
  it.each(GROUPS.map((spec) => [JSON.stringify(spec), spec]))('gives what mingo gives: %s', (_, spec) => {
    const ours = outcome(() => runPipeline(undefined, [{ $group: spec }], DOCS, {}));
    const mingo = outcome(() => new Aggregator([{ $group: spec }]).run<Doc>(structuredClone(DOCS)));
    expect(ours).toStrictEqual(mingo);
  });
});

const STAGES: Doc[][] = [
  [
    {
      $addFields: {
        w: { $floor: { $divide: [{ $subtract: ['$at', at(0)] }, 86_400_000] } },
        'user.x': '$n',
        n: '$$REMOVE',
      },
    },
  ],
  [
    {
      $set: {
        tags: { $arrayElemAt: ['$tags', 0] },
        ok: { $let: { vars: { u: '$user' }, in: { $ne: ['$$u.role', null] } } },
      },
    },
  ],
  [{ $project: { name: 1, d: { $ceil: '$n' }, first: { $ifNull: ['$name', '$_id'] }, tags: { $slice: 1 } } }],
  [{ $project: { _id: 0, 'user.role': 1, big: { $gte: ['$n', 2.5] }, t: '$tags' } }],
  [{ $project: { n: { $floor: '$name' } } }],
  [{ $project: { n: { $map: { input: '$tags', in: { $add: ['$$this', 1] } } } } }],
  // The operator standing for compiled expressions is unknown to a client's pipeline, as to mingo.
  [{ $addFields: { n: { $devdbCompiled: 1 } } }],
  [
    {
      $project: {
        seen: {
          $anyElementTrue: [
            {
              $map: {
                input: { $cond: [{ $isArray: '$tags' }, '$tags', []] },
                as: 't',
                in: { $and: [{ $gte: ['$$t', 'x'] }, { $lt: ['$$t', '$name'] }] },
              },
            },
          ],
        },
        next: {
          $map: {
            input: { $cond: [{ $isArray: '$tags' }, '$tags', []] },
            in: { $concatArrays: [['$$this'], ['$name']] },
          },
        },
        sums: { $map: { input: [1, 2], as: 'k', in: { $add: ['$$k', { $ifNull: ['$n', 0] }] } } },
        later: { $add: ['$at', 1000, '$n'] },
      },
    },
  ],
];

describe('devdb $addFields, $set and $project with compiled expressions', () => {
  it.each(STAGES.map((stages) => [JSON.stringify(stages), stages]))('give what mingo gives: %s', (_, stages) => {
    const ours = outcome(() => runPipeline(undefined, stages, DOCS, {}));
    const mingo = outcome(() => new Aggregator(stages).run<Doc>(structuredClone(DOCS)));
    expect(ours).toStrictEqual(mingo);
  });
});

describe('devdb pipelines and the documents they read', () => {
  it('never change the documents given, whichever stage copies them, and hand out copies', () => {
    const before = structuredClone(DOCS);
    const pipelines: Doc[][] = [
      [{ $sort: { _id: -1 } }, { $set: { 'user.role': 'changed' } }],
      [{ $limit: 4 }, { $group: { _id: '$user', docs: { $push: '$$ROOT' } } }, { $set: { '_id.role': 'changed' } }],
      [{ $skip: 1 }, { $sort: { _id: 1 } }],
      // Rows holding stored documents or arrays in a key document or a $push list are copied; rows of scalars not.
      [{ $group: { _id: { u: '$user' }, n: { $sum: 1 } } }, { $set: { '_id.u.role': 'changed' } }],
      [{ $group: { _id: '$name', t: { $push: '$tags' } } }, { $set: { 't.0.0': 'changed' } }],
      [{ $group: { _id: { n: '$name' }, a: { $push: '$n' } } }, { $set: { '_id.x': 1, 'a.0': 5 } }],
    ];
    for (const stages of pipelines) {
      const out = runPipeline(undefined, stages, DOCS, {});
      // What a later consumer does to the results must not reach the documents either.
      for (const row of out) if (row.user && typeof row.user === 'object') (row.user as Doc).role = 'changed later';
      expect(out.length).toBeGreaterThan(0);
    }
    expect(DOCS).toStrictEqual(before);
  });

  it("copy what a $group keeps of a $unionWith's documents, which reach it uncopied, before later stages change it", () => {
    const db = new Store({}).ensureDb('shop');
    const orders = db.ensureCollection('orders');
    orders.insert({ _id: 10, user: 1, total: 30, items: ['a', 'b'] });
    orders.insert({ _id: 11, user: 1, total: 12, items: ['b'] });
    const before = structuredClone([...orders.docs.values()]);
    const out = runPipeline(
      db,
      [
        { $unionWith: { coll: 'orders', pipeline: [{ $match: { user: 1 } }] } },
        { $group: { _id: '$user', items: { $push: '$items' }, first: { $first: '$$ROOT' } } },
        { $set: { 'items.0.0': 'z', 'first.total': 0 } },
      ],
      [],
      {},
    );
    expect(out).toStrictEqual([
      { _id: 1, items: [['z', 'b'], ['b']], first: { _id: 10, user: 1, total: 0, items: ['a', 'b'] } },
    ]);
    expect([...orders.docs.values()]).toStrictEqual(before);
  });
});
