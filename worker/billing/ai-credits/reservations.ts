import { type AnyBulkWriteOperation, ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { CreditAccountDoc, CreditHold, CreditLedgerDoc, PaidOperation } from '../documents';
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
 * settling), in batches of accounts: the reserve entries a crash may have left out, the release
 * entries, then one update per account for all its stale holds, conditional on every one of them
 * still being held (else hold by hold). A hold whose settle was entered but not applied is
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
    const perAccount = accounts.map((account) => ({
      accountId: account._id,
      stale: account.holds
        .filter((hold) => hold.at < cutoff)
        .map((hold) => ({ userId: account.userId, id: hold.id, amount: hold.amount, operation: hold.operation })),
    }));
    const stale = perAccount.flatMap((account) => account.stale);
    // A hold seen twice was not removed by the write before: stop rather than loop on it.
    if (!stale.length || stale.some((r) => seen.has(r.id))) return seen.size;
    for (const r of stale) seen.add(r.id);
    await insertEntries(store, stale.map(reserveEntry));
    const releases = stale.map((r) => finishEntry(r, { kind: 'release' }));
    const taken = await insertEntries(store, releases);
    // Where a settle or release was already entered, that entry decides what goes back.
    const decided = new Map(
      taken.size
        ? (
            await store.credit_ledger
              .find({ idempotencyKey: { $in: releases.filter((_, i) => taken.has(i)).map((e) => e.idempotencyKey) } })
              .project<{ reservationId: string; amount: number }>({ reservationId: 1, amount: 1 })
              .toArray()
          ).map((entry) => [entry.reservationId, entry.amount])
        : [],
    );
    const refund = (r: Reservation) => decided.get(r.id) ?? r.amount;
    const sum = (rows: Reservation[], of: (r: Reservation) => number) => rows.reduce((total, r) => total + of(r), 0);
    const result = await store.credit_accounts.bulkWrite(
      perAccount.map(({ accountId, stale: holds }) => ({
        updateOne: {
          filter: { _id: accountId, 'holds.id': { $all: holds.map((r) => r.id) } },
          update: {
            $inc: { balance: sum(holds, refund), reserved: -sum(holds, (r) => r.amount) },
            $pull: { holds: { id: { $in: holds.map((r) => r.id) } } },
            $set: { updatedAt: new Date() },
          },
        },
      })),
      { ordered: false },
    );
    // An account where a request finished one of the holds meanwhile: hold by hold, each conditional.
    if (result.matchedCount < perAccount.length) {
      await store.credit_accounts.bulkWrite(
        stale.map((r) => applyFinish(r, refund(r))),
        { ordered: false },
      );
    }
  }
}

/** Inserts entries; returns the positions whose key was already in the ledger (those are left as they are). */
async function insertEntries(
  store: Store,
  entries: Omit<CreditLedgerDoc, '_id' | 'createdAt'>[],
): Promise<Set<number>> {
  const now = new Date();
  try {
    await store.credit_ledger.insertMany(
      entries.map((entry) => ({ ...entry, _id: new ObjectId(), createdAt: now })),
      { ordered: false },
    );
    return new Set();
  } catch (err) {
    const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
    const errors = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as {
      index: number;
      code: number;
    }[];
    // Anything but a taken key (code 11000) is a real failure.
    if (!errors.length || errors.some((e) => e.code !== 11000)) throw err;
    return new Set(errors.map((e) => e.index));
  }
}
