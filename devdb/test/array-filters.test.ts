import { describe, expect, it } from 'vitest';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

describe('arrayFilters', () => {
  it('updates array elements with arrayFilters and the positional operator', async () => {
    const c = t.db().collection<AnyDoc>('grades');
    await c.insertOne({
      _id: 1,
      grades: [
        { g: 80, mean: 75 },
        { g: 95, mean: 90 },
        { g: 70, mean: 60 },
      ],
    });
    await c.updateOne({ _id: 1 }, { $set: { 'grades.$[e].mean': 100 } }, { arrayFilters: [{ 'e.g': { $gte: 80 } }] });
    expect((await c.findOne({ _id: 1 }))!.grades).toEqual([
      { g: 80, mean: 100 },
      { g: 95, mean: 100 },
      { g: 70, mean: 60 },
    ]);
    await c.updateOne({ _id: 1, 'grades.g': 70 }, { $inc: { 'grades.$.mean': 5 } });
    expect((await c.findOne({ _id: 1 }))!.grades[2]).toEqual({ g: 70, mean: 65 });
  });

  it('takes top-level $or, $and and $nor in an array filter whose clauses name one identifier', async () => {
    const c = t.db().collection<AnyDoc>('spots');
    const stays = () => [
      { by: 'ann', n: 1 },
      { by: 'bob', n: 2 },
      { by: 'cat', n: 3 },
      { by: 'dan', n: 4 },
    ];
    const marked = async (arrayFilters: AnyDoc[]) => {
      await c.deleteMany({});
      await c.insertOne({ _id: 1, stays: stays() });
      await c.updateOne({ _id: 1 }, { $set: { 'stays.$[s].hit': true } }, { arrayFilters });
      return (await c.findOne({ _id: 1 }))!.stays.filter((s: AnyDoc) => s.hit).map((s: AnyDoc) => s.by);
    };
    expect(await marked([{ $or: [{ 's.by': 'ann' }, { 's.n': { $gte: 4 } }] }])).toEqual(['ann', 'dan']);
    expect(await marked([{ $and: [{ 's.n': { $gt: 1 } }, { $or: [{ 's.by': 'bob' }, { 's.by': 'dan' }] }] }])).toEqual([
      'bob',
      'dan',
    ]);
    expect(await marked([{ $nor: [{ 's.by': 'ann' }, { 's.n': 3 }] }])).toEqual(['bob', 'dan']);
    expect(await marked([{ 's.n': { $lt: 3 }, $or: [{ 's.by': 'bob' }, { 's.by': 'cat' }] }])).toEqual(['bob']);
    await c.findOneAndUpdate(
      { _id: 1 },
      { $inc: { 'stays.$[s].n': 10 } },
      { arrayFilters: [{ $or: [{ 's.by': 'cat' }, { 's.hit': true }] }] },
    );
    expect((await c.findOne({ _id: 1 }))!.stays.map((s: AnyDoc) => s.n)).toEqual([1, 12, 13, 4]);
  });

  it('refuses array filters as mongod does: one identifier per filter, one filter per identifier, each used', async () => {
    const c = t.db().collection<AnyDoc>('spots');
    await c.insertOne({ _id: 1, stays: [{ by: 'ann' }] });
    const refusal = (arrayFilters: AnyDoc[], update: AnyDoc = { $set: { 'stays.$[s].hit': true } }) =>
      c.updateOne({ _id: 1 }, update, { arrayFilters }).then(
        () => undefined,
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
      );
    const caused = 'Error parsing array filter :: caused by :: ';
    expect(await refusal([{ $or: [{ 's.by': 'ann' }, { 't.by': 'bob' }] }])).toEqual({
      code: 9,
      message: `${caused}Expected a single top-level field name, found 's' and 't'`,
    });
    expect(await refusal([{ 's.by': 'ann', 't.by': 'bob' }])).toEqual({
      code: 9,
      message: `${caused}Expected a single top-level field name, found 's' and 't'`,
    });
    expect(await refusal([{ 's.by': 'ann' }, { 's.n': 1 }])).toEqual({
      code: 9,
      message: 'Found multiple array filters with the same top-level field name s',
    });
    expect(await refusal([{}])).toEqual({
      code: 9,
      message: 'Cannot use an expression without a top-level field name in arrayFilters',
    });
    expect(await refusal([{ 'S.by': 'ann' }], { $set: { 'stays.$[S].hit': true } })).toMatchObject({
      code: 2,
      message: `${caused}The top-level field name must be an alphanumeric string beginning with a lowercase letter, found 'S'`,
    });
    expect(await refusal([{ 's.by': 'ann' }, { 't.by': 'bob' }])).toEqual({
      code: 9,
      message: "The array filter for identifier 't' was not used in the update { $set: { stays.$[s].hit: true } }",
    });
    expect(await refusal([], { $set: { 'stays.$[s].hit': true } })).toEqual({
      code: 2,
      message: "No array filter found for identifier 's' in path 'stays.$[s].hit'",
    });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, stays: [{ by: 'ann' }] });
  });

  it('refuses an identifier the update uses when the statement has no arrayFilters at all', async () => {
    const c = t.db().collection<AnyDoc>('spots');
    await c.insertOne({ _id: 1, stays: [{ by: 'ann' }] });
    const missing = { code: 2, message: "No array filter found for identifier 's' in path 'stays.$[s].hit'" };
    expect(await refused(c.updateOne({ _id: 1 }, { $set: { 'stays.$[s].hit': true } }))).toEqual(missing);
    expect(await refused(c.updateMany({}, { $set: { 'stays.$[s].hit': true } }, { upsert: true }))).toEqual(missing);
    expect(await refused(c.findOneAndUpdate({ _id: 1 }, { $set: { 'stays.$[s].hit': true } }))).toEqual(missing);
    await c.updateOne({ _id: 1 }, { $set: { 'stays.$[].hit': true } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, stays: [{ by: 'ann', hit: true }] });
  });

  it('refuses arrayFilters with a pipeline update, an empty list aside for update', async () => {
    const db = t.db();
    const c = db.collection<AnyDoc>('spots');
    await c.insertOne({ _id: 1, stays: [{ by: 'ann' }] });
    const pipeline = [{ $set: { seen: true } }];
    expect(await refused(c.updateOne({ _id: 1 }, pipeline, { arrayFilters: [{ 's.by': 'ann' }] }))).toEqual({
      code: 9,
      message: 'arrayFilters may not be specified for pipeline-syle updates',
    });
    // The filters are parsed before the update is, so their own errors come first.
    expect(
      await refused(c.updateOne({ _id: 1 }, pipeline, { arrayFilters: [{ 's.by': 'ann' }, { 's.n': 1 }] })),
    ).toEqual({ code: 9, message: 'Found multiple array filters with the same top-level field name s' });
    // findAndModify refuses the option itself with a pipeline, even empty, and with remove.
    const both = { code: 9, message: 'Cannot specify arrayFilters and a pipeline update' };
    expect(await refused(c.findOneAndUpdate({ _id: 1 }, pipeline, { arrayFilters: [{ 's.by': 'ann' }] }))).toEqual(
      both,
    );
    expect(await refused(c.findOneAndUpdate({ _id: 1 }, pipeline, { arrayFilters: [] }))).toEqual(both);
    const removing = { findAndModify: 'spots', query: { _id: 1 }, remove: true, arrayFilters: [{ 's.by': 'ann' }] };
    expect(await refused(db.command(removing))).toEqual({
      code: 9,
      message: 'Cannot specify arrayFilters and remove=true',
    });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, stays: [{ by: 'ann' }] });
    await c.updateOne({ _id: 1 }, pipeline, { arrayFilters: [] });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, stays: [{ by: 'ann' }], seen: true });
  });

  it('refuses $expr, $jsonSchema, $where, $text and $near in a filter, also inside $and/$or/$nor', async () => {
    const c = t.db().collection<AnyDoc>('spots');
    await c.insertOne({ _id: 1, stays: [{ by: 'ann', n: 1 }] });
    const marking = (filter: AnyDoc) =>
      refused(c.updateOne({ _id: 1 }, { $set: { 'stays.$[s].hit': true } }, { arrayFilters: [filter] }));
    const caused = 'Error parsing array filter :: caused by :: ';
    const expr = { code: 224, message: `${caused}$expr is not allowed in this context` };
    expect(await marking({ $expr: { $eq: [1, 1] } })).toEqual(expr);
    expect(await marking({ 's.by': 'ann', $expr: { $eq: [1, 1] } })).toEqual(expr);
    expect(await marking({ $and: [{ 's.by': 'ann' }, { $expr: { $eq: [1, 1] } }] })).toEqual(expr);
    expect(await marking({ $nor: [{ $or: [{ 's.n': 2 }, { $expr: { $eq: [1, 1] } }] }] })).toEqual(expr);
    expect(await marking({ $jsonSchema: {} })).toEqual({
      code: 224,
      message: `${caused}$jsonSchema is not allowed in this context`,
    });
    expect(await marking({ 's.by': 'ann', $where: 'true' })).toEqual({
      code: 2,
      message: `${caused}$where is not allowed in this context`,
    });
    expect(await marking({ $or: [{ 's.by': 'ann' }, { $text: { $search: 'ann' } }] })).toEqual({
      code: 2,
      message: `${caused}$text is not allowed in this context`,
    });
    expect(await marking({ 's.at': { $nearSphere: [0, 0] } })).toEqual({
      code: 5626500,
      message: `${caused}$geoNear, $near, and $nearSphere are not allowed in this context`,
    });
    // The whole filter is parsed before its identifier is looked for.
    expect(await marking({ 's.by': 'ann', 't.by': 'bob', $expr: { $eq: [1, 1] } })).toEqual(expr);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, stays: [{ by: 'ann', n: 1 }] });
  });
});

/** A refused write's code and message, or undefined when it was accepted. */
function refused(write: Promise<unknown>): Promise<{ code: number; message: string } | undefined> {
  return write.then(
    () => undefined,
    (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
  );
}
