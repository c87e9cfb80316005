import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyDoc, startTestServer, type TestServer } from './helpers.js';

// A long aggregation runs in slices: other connections (the driver's heartbeats among them) are answered while it
// runs, and it reads the collections as they were when it started.

let t: TestServer;
let other: MongoClient;
beforeAll(async () => {
  t = await startTestServer();
  other = new MongoClient(t.server.uri);
  await other.connect();
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const DOCS = 4_000;
/** A sum over 0..9 per document, in both the group key and an accumulator: long, whatever the stages cost. */
const heavy = (field: string) => ({
  $reduce: { input: { $range: [0, 10] }, initialValue: `$${field}`, in: { $add: ['$$value', '$$this'] } },
});

describe('devdb long aggregation', () => {
  it("answers another client's heartbeats, reads and writes before the aggregation's reply, which reads its start", async () => {
    const db = t.db('slices');
    const coll = db.collection<AnyDoc>('events');
    await coll.insertMany(Array.from({ length: DOCS }, (_, n) => ({ _id: n, n })));
    const admin = other.db('admin');
    const opcount = async () => (await admin.command({ serverStatus: 1 })).opcounters.command as number;
    const replies: string[] = [];

    const counted = await opcount();
    const long = coll
      .aggregate([
        { $group: { _id: { $mod: [heavy('n'), 3] }, total: { $sum: heavy('n') }, docs: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray()
      .then((rows) => {
        replies.push('aggregate');
        return rows;
      });
    // serverStatus counts every command it has read, itself included: one more than our polls is the aggregate.
    for (let polls = 1; (await opcount()) <= counted + polls; polls += 1);

    await admin.command({ hello: 1 });
    replies.push('hello');
    await admin.command({ ping: 1 });
    replies.push('ping');
    const otherColl = other.db(db.databaseName).collection<AnyDoc>('events');
    expect(await otherColl.findOne({ _id: 7 })).toEqual({ _id: 7, n: 7 });
    replies.push('find');
    await otherColl.insertOne({ _id: DOCS, n: DOCS });
    replies.push('insert');
    const rows = await long;

    expect(replies).toEqual(['hello', 'ping', 'find', 'insert', 'aggregate']);
    // The document inserted while it ran is not counted.
    expect(rows.reduce((sum, row) => sum + row.docs, 0)).toBe(DOCS);
    const shift = (9 * 10) / 2;
    expect(rows).toEqual(
      [0, 1, 2].map((mod) => {
        const ns = Array.from({ length: DOCS }, (_, n) => n).filter((n) => (n + shift) % 3 === mod);
        return { _id: mod, total: ns.reduce((sum, n) => sum + n + shift, 0), docs: ns.length };
      }),
    );
  });
});
