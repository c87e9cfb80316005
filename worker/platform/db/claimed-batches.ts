import {
  type AnyBulkWriteOperation,
  type Collection,
  type Filter,
  type MatchKeysAndValues,
  ObjectId,
  type UpdateFilter,
} from 'mongodb';
import { idForms, readId } from './stored-values';

// A cron job's queue of due rows, worked in batches under a lease: claim the soonest due rows, work them,
// settle each one while the lease is still this batch's. The reminder run and the event notification run
// stand on it (worker/riding/reminders/claims.ts, worker/events/notifications/claims.ts).

/** A row such a queue holds: pending until settled, held by at most one batch (leaseId) until leaseUntil. */
export interface LeasedRow {
  _id: ObjectId;
  status: string;
  leaseId: string | null;
  leaseUntil: Date;
  updatedAt: Date;
}

/** What a job's work decided for one claimed row; `to` names the outcome the run counts. */
export interface Settlement<Row extends LeasedRow> {
  row: Row;
  to: string;
}

/** What settling one row writes besides releasing its lease. */
export interface SettlementWrite<Row extends LeasedRow> {
  $set: MatchKeysAndValues<Row>;
  $inc?: UpdateFilter<Row>['$inc'];
}

/** One job's queue: where its rows are, when one falls due, how long a lease and a run last. */
export interface DueQueue<Row extends LeasedRow, S extends Settlement<Row>> {
  rows: Collection<Row>;
  /** The date a row falls due at; the soonest are claimed first (an index on status and this field serves it). */
  dueField: keyof Row & string;
  /** Longer than any run, so a row a live run holds is never claimed again; a crashed run's rows come back after it. */
  leaseMinutes: number;
  /** Rows claimed and worked at a time. */
  batchRows: number;
  /** Due rows one run sees at most, so it ends inside the Cron Trigger's wall time. */
  runMaxRows: number;
  /** The write that records a settlement. */
  write(settlement: S, now: Date): SettlementWrite<Row>;
}

export interface ClaimedBatch<Row extends LeasedRow> {
  /** Due rows seen, whether this batch or an overlapping run claimed them. */
  seen: number;
  rows: Row[];
  batchId: string;
}

const dueFilter = <Row extends LeasedRow>(queue: DueQueue<Row, never>, now: Date) =>
  ({ status: 'pending', [queue.dueField]: { $lte: now }, leaseUntil: { $lte: now } }) as Filter<Row>;

/**
 * Claims up to `size` due rows for one batch in three commands: the soonest due ids, a conditional lease
 * of those still due (leaseDueRows), and a read of the rows that carry this batch's lease.
 */
export async function claimDueBatch<Row extends LeasedRow>(
  queue: DueQueue<Row, never>,
  now: Date,
  size: number,
): Promise<ClaimedBatch<Row>> {
  const batchId = new ObjectId().toHexString();
  const candidates = await queue.rows
    .find(dueFilter(queue, now), { projection: { _id: 1 } })
    .sort({ [queue.dueField]: 1 })
    .limit(size)
    .toArray();
  if (!candidates.length) return { seen: 0, rows: [], batchId };
  const ids = candidates.map((row) => row._id);
  return { seen: ids.length, rows: await leaseDueRows(queue, ids, batchId, now), batchId };
}

/**
 * Leases to `batchId` those of `ids` that are still pending and unleased, in one conditional `updateMany`,
 * so of two overlapping runs that found the same ids only one holds each row; answers the rows it holds.
 */
export async function leaseDueRows<Row extends LeasedRow>(
  queue: DueQueue<Row, never>,
  ids: ObjectId[],
  batchId: string,
  now: Date,
): Promise<Row[]> {
  const leaseUntil = new Date(now.getTime() + queue.leaseMinutes * 60_000);
  await queue.rows.updateMany({ _id: { $in: ids }, ...dueFilter(queue, now) } as Filter<Row>, {
    $set: { leaseId: batchId, leaseUntil } as MatchKeysAndValues<Row>,
  });
  return (await queue.rows.find({ _id: { $in: ids }, leaseId: batchId } as Filter<Row>).toArray()) as Row[];
}

/** Writes every settlement of a batch in one bulk write; each holds only while the row is still this batch's. */
export async function settleBatch<Row extends LeasedRow, S extends Settlement<Row>>(
  queue: DueQueue<Row, S>,
  batchId: string,
  settlements: S[],
  now: Date,
): Promise<void> {
  if (!settlements.length) return;
  const operations = settlements.map((settlement): AnyBulkWriteOperation<Row> => {
    // A row's work may have read its id from a hex string older code stored: match a readable id in either form.
    const id = readId(settlement.row._id);
    const filter = { _id: id ? { $in: idForms(id) } : settlement.row._id, leaseId: batchId, status: 'pending' };
    const { $set, $inc } = queue.write(settlement, now);
    const update = { $set: { ...$set, leaseId: null, updatedAt: now }, ...($inc ? { $inc } : {}) };
    return { updateOne: { filter: filter as Filter<Row>, update: update as UpdateFilter<Row> } };
  });
  await queue.rows.bulkWrite(operations, { ordered: false });
}

export interface QueueRunSummary<S extends Settlement<LeasedRow>> {
  claimed: number;
  /** Settlements written, by outcome. */
  settled: Partial<Record<S['to'], number>>;
}

/**
 * One run of a job: claims due rows batch by batch until none is due or the run has seen `runMaxRows`,
 * has `work` decide each claimed row's settlement, and writes them.
 */
export async function workDueBatches<Row extends LeasedRow, S extends Settlement<Row>>(
  queue: DueQueue<Row, S>,
  now: Date,
  work: (batch: ClaimedBatch<Row>) => Promise<S[]>,
): Promise<QueueRunSummary<S>> {
  const summary: QueueRunSummary<S> = { claimed: 0, settled: {} };
  for (let seen = 0; seen < queue.runMaxRows; ) {
    const batch = await claimDueBatch(queue, now, Math.min(queue.batchRows, queue.runMaxRows - seen));
    if (!batch.seen) break;
    seen += batch.seen;
    summary.claimed += batch.rows.length;
    if (!batch.rows.length) continue;
    const settlements = await work(batch);
    await settleBatch(queue, batch.batchId, settlements, now);
    for (const { to } of settlements) summary.settled[to as S['to']] = (summary.settled[to as S['to']] ?? 0) + 1;
  }
  return summary;
}
