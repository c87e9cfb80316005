import type { Filter, ObjectId } from 'mongodb';
import { ObjectId as Id } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import type { CreditAccountDoc, CreditLedgerDoc } from '../documents';

// The credit account and its append-only ledger: every change of a balance is an entry with an
// idempotency key (unique), written before or beside the account update it stands for.

/** Idempotency keys an account remembers: retries arrive within minutes, never fifty credits later. */
const APPLIED_KEYS_KEPT = 50;

/** Credit arriving: a monthly grant, an admin grant or a purchase. */
export interface CreditIn {
  kind: 'grant' | 'purchase';
  amount: number;
  idempotencyKey: string;
  reason?: string;
  adminId?: ObjectId;
  providerEventId?: string;
}

/** Creates the rider's account when it does not exist yet; true when this call created it or lost the race to. */
export async function ensureAccount(store: Store, userId: ObjectId, now = new Date()): Promise<boolean> {
  return onDuplicateKey(
    async () =>
      (
        await store.credit_accounts.updateOne(
          { userId },
          { $setOnInsert: { balance: 0, reserved: 0, holds: [], appliedKeys: [], createdAt: now, updatedAt: now } },
          { upsert: true },
        )
      ).upsertedCount > 0,
    () => true,
  );
}

/** Appends an entry; false when its idempotency key is already in the ledger. */
export async function appendEntry(
  store: Store,
  entry: Omit<CreditLedgerDoc, '_id' | 'createdAt'>,
  createdAt = new Date(),
): Promise<boolean> {
  return onDuplicateKey(
    async () => {
      await store.credit_ledger.insertOne({ _id: new Id(), ...entry, createdAt });
      return true;
    },
    () => false,
  );
}

/**
 * Adds credit at most once per idempotency key: the entry first, then the balance, guarded by
 * the key on the account itself, so a retry after a crash between the two completes the first
 * attempt instead of doubling it. `appliedAt` on the entry marks it done for retries that come
 * after the account has forgotten the key.
 */
export async function addCredits(store: Store, userId: ObjectId, credit: CreditIn): Promise<'applied' | 'duplicate'> {
  const { idempotencyKey } = credit;
  if (!(await appendEntry(store, { userId, ...credit }))) {
    const entry = await store.credit_ledger.findOne({ idempotencyKey }, { projection: { appliedAt: 1 } });
    if (entry?.appliedAt) return 'duplicate';
  }
  const now = new Date();
  // The account exists and already holds the key: the upsert's insert collides on userId.
  const applied = await onDuplicateKey(
    async () => {
      const result = await store.credit_accounts.updateOne(
        { userId, appliedKeys: { $ne: idempotencyKey } } as Filter<CreditAccountDoc>,
        {
          $inc: { balance: credit.amount },
          $push: { appliedKeys: { $each: [idempotencyKey], $slice: -APPLIED_KEYS_KEPT } },
          $set: { updatedAt: now },
          $setOnInsert: { reserved: 0, holds: [], createdAt: now },
        },
        { upsert: true },
      );
      return result.modifiedCount + result.upsertedCount > 0;
    },
    () => false,
  );
  await store.credit_ledger.updateOne({ idempotencyKey }, { $set: { appliedAt: now } });
  return applied ? 'applied' : 'duplicate';
}

/** The rider's account as it stands, or an empty one. */
export async function findAccount(store: Store, userId: ObjectId) {
  const account = await store.credit_accounts.findOne(
    { userId },
    { projection: { balance: 1, reserved: 1, allowance: 1 } },
  );
  return { balance: account?.balance ?? 0, reserved: account?.reserved ?? 0, allowance: account?.allowance };
}

/** A page of the rider's ledger, newest first (limit + 1 rows, for toPage). */
export function ledgerPage(store: Store, userId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.credit_ledger
    .find(page.cursor ? { userId, _id: { $lt: page.cursor } } : { userId }, {
      sort: { _id: -1 },
      limit: page.limit + 1,
    })
    .toArray();
}
