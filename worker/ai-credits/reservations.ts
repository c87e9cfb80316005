import { type AnyBulkWriteOperation, ObjectId } from 'mongodb';
import type { CreditAccountDoc, CreditHold, CreditLedgerDoc, PaidOperation } from '../db/documents';
import { isDuplicateKey } from '../db/errors';
import type { Store } from '../db/store';
import { LIMITS } from '../limits';
import { appendEntry } from './ledger';

// Reservations: credit held for one AI call before the model is asked, then settled at the
// call's real cost or released. Each step is one conditional update of the account plus a
// ledger entry under a key derived from the reservation, so any step can be retried.

export interface Reservation {
  userId: ObjectId;
  id: string;
  amount: number;
  operation: PaidOperation;
}

/** How a reservation ended: settled at `charged` credits, or released whole. */
export type Finish = { kind: 'settle'; charged: number } | { kind: 'release' };

const reserveKey = (id: string) => `reserve:${id}`;
// Settle and release share one key: whichever is entered first is how the reservation ended.
const finishKey = (id: string) => `finish:${id}`;

/**
 * Holds `amount` credits with one conditional update (the balance must cover it, so parallel
 * requests can never take it below zero), then enters it in the ledger. Null when the balance
 * is short, with the balance for the 402.
 */
export async function reserveCredits(
  store: Store,
  userId: ObjectId,
  amount: number,
  operation: PaidOperation,
): Promise<Reservation | { short: true; balance: number }> {
  const hold: CreditHold = { id: crypto.randomUUID(), amount, operation, at: new Date() };
  const { modifiedCount } = await store.credit_accounts.updateOne(
    { userId, balance: { $gte: amount } },
    { $inc: { balance: -amount, reserved: amount }, $push: { holds: hold }, $set: { updatedAt: hold.at } },
  );
  if (!modifiedCount) {
    const account = await store.credit_accounts.findOne({ userId }, { projection: { balance: 1 } });
    return { short: true, balance: account?.balance ?? 0 };
  }
  const reservation = { userId, id: hold.id, amount, operation };
  try {
    await appendEntry(store, reserveEntry(reservation));
  } catch (err) {
    await finishReservation(store, reservation, { kind: 'release' });
    throw err;
  }
  return reservation;
}

const reserveEntry = (r: Reservation) => ({
  userId: r.userId,
  kind: 'reserve' as const,
  amount: -r.amount,
  idempotencyKey: reserveKey(r.id),
  reservationId: r.id,
  operation: r.operation,
});

function finishEntry(r: Reservation, finish: Finish): Omit<CreditLedgerDoc, '_id' | 'createdAt'> {
  const charged = finish.kind === 'settle' ? Math.min(finish.charged, r.amount) : 0;
  return {
    userId: r.userId,
    kind: finish.kind,
    amount: r.amount - charged,
    idempotencyKey: finishKey(r.id),
    reservationId: r.id,
    operation: r.operation,
    ...(finish.kind === 'settle' ? { charged } : {}),
  };
}

/**
 * Ends a reservation: the entry first (its key makes settle and release exclusive), then the
 * account, conditional on the hold still being there, so it is applied exactly once. Returns the
 * entry that decided, which is the sweep's release when it got there first.
 */
export async function finishReservation(
  store: Store,
  reservation: Reservation,
  finish: Finish,
  at = new Date(),
): Promise<Pick<CreditLedgerDoc, 'kind' | 'amount' | 'charged'>> {
  const entry = finishEntry(reservation, finish);
  const decided = (await appendEntry(store, entry, at))
    ? entry
    : ((await store.credit_ledger.findOne({ idempotencyKey: entry.idempotencyKey })) ?? entry);
  const { filter, update } = applyFinish(reservation, decided.amount).updateOne;
  await store.credit_accounts.updateOne(filter, update);
  return decided;
}

function applyFinish(r: Reservation, refund: number) {
  return {
    updateOne: {
      filter: { userId: r.userId, 'holds.id': r.id },
      update: {
        $inc: { balance: refund, reserved: -r.amount },
        $pull: { holds: { id: r.id } },
        $set: { updatedAt: new Date() },
      },
    },
  } satisfies AnyBulkWriteOperation<CreditAccountDoc>;
}

/**
 * The cron sweep: releases every hold older than `reservationStaleMs` (its request died before
 * settling), in batches: the reserve entries it may lack, the release entries, then the
 * accounts, each batch in three bulk writes. A hold whose settle was entered but not applied is
 * settled instead, as that entry says. Returns how many holds it ended.
 */
export async function sweepStaleReservations(store: Store, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - LIMITS.aiCredits.reservationStaleMs);
  const seen = new Set<string>();
  for (;;) {
    const accounts = await store.credit_accounts
      .find(
        { 'holds.at': { $lt: cutoff } },
        { projection: { userId: 1, holds: 1 }, limit: LIMITS.aiCredits.sweepBatch },
      )
      .toArray();
    const stale = accounts.flatMap((account) =>
      account.holds
        .filter((hold) => hold.at < cutoff)
        .map((hold) => ({ userId: account.userId, id: hold.id, amount: hold.amount, operation: hold.operation })),
    );
    // A hold seen twice was not removed by the write before: stop rather than loop on it.
    if (!stale.length || stale.some((r) => seen.has(r.id))) return seen.size;
    for (const r of stale) seen.add(r.id);
    await insertMissing(store, stale.map(reserveEntry));
    const releases = stale.map((r) => finishEntry(r, { kind: 'release' }));
    await insertMissing(store, releases);
    const decided = new Map(
      (
        await store.credit_ledger
          .find({ idempotencyKey: { $in: releases.map((entry) => entry.idempotencyKey) } })
          .project<{ reservationId: string; amount: number }>({ reservationId: 1, amount: 1 })
          .toArray()
      ).map((entry) => [entry.reservationId, entry.amount]),
    );
    await store.credit_accounts.bulkWrite(
      stale.map((r) => applyFinish(r, decided.get(r.id) ?? r.amount)),
      { ordered: false },
    );
  }
}

/** Inserts entries whose keys are not in the ledger yet; the others are left as they are. */
async function insertMissing(store: Store, entries: Omit<CreditLedgerDoc, '_id' | 'createdAt'>[]) {
  const keys = entries.map((entry) => entry.idempotencyKey);
  const present = new Set(
    (
      await store.credit_ledger
        .find({ idempotencyKey: { $in: keys } })
        .project({ idempotencyKey: 1 })
        .toArray()
    ).map((entry) => entry.idempotencyKey as string),
  );
  const now = new Date();
  const missing = entries.filter((entry) => !present.has(entry.idempotencyKey));
  if (!missing.length) return;
  try {
    await store.credit_ledger.insertMany(
      missing.map((entry) => ({ ...entry, _id: new ObjectId(), createdAt: now })),
      { ordered: false },
    );
  } catch (err) {
    // A request settling at the same moment entered its own: the unique key keeps one, as intended.
    if (!isDuplicateKey(err)) throw err;
  }
}
