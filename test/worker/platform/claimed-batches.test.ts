import { type Db, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import {
  type ClaimedBatch,
  claimDueBatch,
  type DueQueue,
  type LeasedRow,
  leaseDueRows,
  settleBatch,
  workDueBatches,
} from '../../../worker/platform/db/claimed-batches';
import { createApi } from '../../support/worker-api';

// The lease mechanics the cron jobs share (worker/platform/db/claimed-batches.ts), on a queue of plain
// rows in a collection of its own per test, so each rule is seen apart from what a job does with a row.

const api = createApi('claimed-batches', {}, { indexes: false });
const MINUTE = 60_000;

interface Row extends LeasedRow {
  n: number;
  dueAt: Date;
  attempts?: number;
}
type Outcome = { row: Row; to: 'done' | 'later' };

/** A queue of its own; 'done' ends a row, 'later' puts it off an hour. */
const queueOf = (db: Db, sizes: { batchRows?: number; runMaxRows?: number } = {}): DueQueue<Row, Outcome> => ({
  rows: db.collection<Row>(`rows_${new ObjectId().toHexString()}`),
  dueField: 'dueAt',
  leaseMinutes: 20,
  batchRows: sizes.batchRows ?? 10,
  runMaxRows: sizes.runMaxRows ?? 100,
  write: (s, now) =>
    s.to === 'done'
      ? { $set: { status: 'done' }, $inc: { attempts: 1 } }
      : { $set: { leaseUntil: new Date(now.getTime() + 60 * MINUTE) } },
});

/** A pending, unleased row due at `dueAt` unless `fields` say otherwise. */
const row = (n: number, dueAt: Date, fields: Partial<Row> = {}): Row => ({
  _id: new ObjectId(),
  n,
  dueAt,
  status: 'pending',
  leaseId: null,
  leaseUntil: new Date(0),
  updatedAt: new Date(0),
  ...fields,
});

const ago = (now: Date, minutes: number) => new Date(now.getTime() - minutes * MINUTE);
const numbers = (rows: Row[]) => rows.map((r) => r.n).sort((a, b) => a - b);
const byNumber = async (queue: DueQueue<Row, Outcome>) =>
  new Map((await queue.rows.find().toArray()).map((r) => [r.n, r as Row]));

describe('claimed batches (worker/platform/db/claimed-batches.ts)', () => {
  it('claims the soonest due rows up to the size, passing over rows not yet due, leased to a live batch, or settled', async () => {
    await api.db(async (db) => {
      const queue = queueOf(db);
      const now = new Date();
      await queue.rows.insertMany([
        row(1, ago(now, 3)),
        row(2, ago(now, 2)),
        row(3, ago(now, 1)),
        row(4, ago(now, -1)),
        row(5, ago(now, 9), { leaseId: 'live-run', leaseUntil: ago(now, -5) }),
        row(6, ago(now, 9), { status: 'done' }),
      ]);
      const first = await claimDueBatch(queue, now, 2);
      expect(first.seen).toBe(2);
      expect(numbers(first.rows)).toEqual([1, 2]);
      for (const claimed of first.rows) {
        expect(claimed.leaseId).toBe(first.batchId);
        expect(claimed.leaseUntil).toEqual(new Date(now.getTime() + 20 * MINUTE));
      }
      const rest = await claimDueBatch(queue, now, 10);
      expect(numbers(rest.rows)).toEqual([3]);
      expect(await claimDueBatch(queue, now, 10)).toMatchObject({ seen: 0, rows: [] });
    });
  });

  it('takes a row again once the lease of the batch holding it has run out', async () => {
    await api.db(async (db) => {
      const queue = queueOf(db);
      const now = new Date();
      await queue.rows.insertOne(row(1, ago(now, 30), { leaseId: 'crashed-run', leaseUntil: ago(now, 0.001) }));
      const batch = await claimDueBatch(queue, now, 10);
      expect(numbers(batch.rows)).toEqual([1]);
      expect((await byNumber(queue)).get(1)!.leaseId).toBe(batch.batchId);
    });
  });

  it('leases found rows only while still unleased: a run that found the same ids after another leased them takes none', async () => {
    await api.db(async (db) => {
      const queue = queueOf(db);
      const now = new Date();
      await queue.rows.insertMany([row(1, ago(now, 2)), row(2, ago(now, 1))]);
      const first = await claimDueBatch(queue, now, 10);
      const late = await leaseDueRows(
        queue,
        first.rows.map((r) => r._id),
        'overlapping-run',
        now,
      );
      expect(late).toEqual([]);
      for (const stored of (await byNumber(queue)).values()) expect(stored.leaseId).toBe(first.batchId);
    });
  });

  it('gives overlapping claims disjoint rows that together are every due row', async () => {
    await api.db(async (db) => {
      const queue = queueOf(db);
      const now = new Date();
      await queue.rows.insertMany(Array.from({ length: 12 }, (_, n) => row(n, ago(now, 12 - n))));
      const batches = await Promise.all([1, 2, 3].map(() => claimDueBatch(queue, now, 12)));
      const held = batches.flatMap((batch) => batch.rows);
      expect(numbers(held)).toEqual(Array.from({ length: 12 }, (_, n) => n));
      const stored = await byNumber(queue);
      for (const batch of batches)
        for (const claimed of batch.rows) expect(stored.get(claimed.n)!.leaseId).toBe(batch.batchId);
    });
  });

  it('writes a settlement only while the row is still the batch’s: a batch whose lease ran out and was retaken writes nothing', async () => {
    await api.db(async (db) => {
      const queue = queueOf(db);
      const start = new Date();
      await queue.rows.insertOne(row(1, ago(start, 1)));
      const stalled = await claimDueBatch(queue, start, 10);
      const later = new Date(start.getTime() + 21 * MINUTE);
      const retaken = await claimDueBatch(queue, later, 10);
      expect(numbers(retaken.rows)).toEqual([1]);

      await settleBatch(queue, stalled.batchId, [{ row: stalled.rows[0]!, to: 'done' }], later);
      expect((await byNumber(queue)).get(1)).toMatchObject({ status: 'pending', leaseId: retaken.batchId });

      const settledAt = new Date(later.getTime() + MINUTE);
      await settleBatch(queue, retaken.batchId, [{ row: retaken.rows[0]!, to: 'done' }], settledAt);
      expect((await byNumber(queue)).get(1)).toMatchObject({
        status: 'done',
        leaseId: null,
        updatedAt: settledAt,
        attempts: 1,
      });
    });
  });

  it('works due rows batch by batch until the run has seen its most, settles each, and leaves the rest unleased', async () => {
    await api.db(async (db) => {
      const queue = queueOf(db, { batchRows: 2, runMaxRows: 5 });
      const now = new Date();
      await queue.rows.insertMany(Array.from({ length: 7 }, (_, n) => row(n, ago(now, 7 - n))));
      const worked: number[][] = [];
      const work = async (batch: ClaimedBatch<Row>) => {
        worked.push(numbers(batch.rows));
        return batch.rows.map((r): Outcome => ({ row: r, to: r.n % 2 ? 'later' : 'done' }));
      };
      expect(await workDueBatches(queue, now, work)).toEqual({ claimed: 5, settled: { done: 3, later: 2 } });
      expect(worked).toEqual([[0, 1], [2, 3], [4]]);
      const stored = await byNumber(queue);
      for (const n of [0, 2, 4]) expect(stored.get(n)).toMatchObject({ status: 'done', leaseId: null });
      for (const n of [1, 3])
        expect(stored.get(n)).toMatchObject({ status: 'pending', leaseId: null, leaseUntil: ago(now, -60) });
      for (const n of [5, 6]) expect(stored.get(n)).toMatchObject({ status: 'pending', leaseId: null });

      // The next run takes the rows this one did not reach; the ones put off wait their hour.
      worked.length = 0;
      expect(await workDueBatches(queue, now, work)).toEqual({ claimed: 2, settled: { done: 1, later: 1 } });
      expect(worked).toEqual([[5, 6]]);
      expect(await workDueBatches(queue, now, work)).toEqual({ claimed: 0, settled: {} });
      expect(worked).toHaveLength(1);
    });
  });
});
