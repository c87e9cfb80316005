import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { readString } from '../../platform/db/stored-values';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { logEvent } from '../../platform/ops/log-line';
import type { NotificationDeliveryLogDoc } from '../documents';
import { markTokensDead } from '../push-tokens/service';
import { getReceipts } from './expo-client';

export interface ReceiptsRun {
  checked: number;
  errors: number;
  tokensMarkedDead: number;
  /** Rows whose ticket id does not read as one (older shapes): closed as `missing` unasked, never retried. */
  unreadable: number;
}

/**
 * Reads the receipts of tickets older than 30 minutes, in batches of at most 1,000 ids (the interface
 * spec): DeviceNotRegistered marks the token dead; every receipt error is stored on its log row and
 * logged; a ticket Expo has no receipt for any more is closed as `missing`, so it is not asked again.
 */
export async function runReceipts(store: Store, env: Env, now = new Date()): Promise<ReceiptsRun> {
  const run: ReceiptsRun = { checked: 0, errors: 0, tokensMarkedDead: 0, unreadable: 0 };
  const sentBefore = new Date(now.getTime() - LIMITS.push.receiptDelayMs);
  for (let batch = 0; batch < LIMITS.push.receiptBatchesPerRun; batch++) {
    const rows = await store.notificationDeliveryLog
      .find(
        { receiptStatus: 'pending', sentAt: { $lte: sentBefore } },
        { projection: { _id: 1, ticketId: 1, token: 1 } },
      )
      .sort({ sentAt: 1 })
      .limit(LIMITS.push.receiptsBatch)
      .toArray();
    if (!rows.length) break;
    const asked = rows.flatMap((row) => {
      const ticketId = readString(row.ticketId);
      return ticketId ? [{ ...row, ticketId, token: readString(row.token) ?? '' }] : [];
    });
    const receipts = asked.length
      ? await getReceipts(
          env,
          asked.map((row) => row.ticketId),
        )
      : {};
    const checkedAt = new Date();
    const closed: Record<'ok' | 'missing', ObjectId[]> = { ok: [], missing: [] };
    // A row no ticket id reads from can never be asked about: it is closed, so it never holds up a run again.
    const unreadable = rows.filter((row) => !readString(row.ticketId));
    for (const row of unreadable) {
      closed.missing.push(row._id);
      logEvent('store.document.unreadable', {
        collection: 'notificationDeliveryLog',
        id: String(row._id),
        reason: 'ticketId',
      });
    }
    const failed: {
      row: Pick<NotificationDeliveryLogDoc, '_id' | 'ticketId' | 'token'>;
      code: string | null;
      message: string;
    }[] = [];
    for (const row of asked) {
      const receipt = Object.hasOwn(receipts, row.ticketId) ? receipts[row.ticketId] : undefined;
      if (!receipt) closed.missing.push(row._id);
      else if (receipt.status === 'ok') closed.ok.push(row._id);
      else failed.push({ row, code: receipt.details?.error ?? null, message: receipt.message });
    }
    // Expo's message quotes the push token: it stays on the delivery-log row, out of the logs.
    for (const { row, code } of failed) logEvent('push.receipt.failed', { ticketId: row.ticketId ?? '', code });
    const gone = failed
      .filter((failure) => failure.code === 'DeviceNotRegistered' && failure.row.token)
      .map((failure) => failure.row.token);
    const updates = [
      ...(['ok', 'missing'] as const).flatMap((status) =>
        closed[status].map((_id) => ({ _id, $set: { receiptStatus: status } })),
      ),
      ...failed.map(({ row, code, message }) => ({
        _id: row._id,
        $set: { receiptStatus: 'error' as const, error: { code, message } },
      })),
    ];
    for (let i = 0; i < updates.length; i += LIMITS.push.logWriteBatch) {
      await store.notificationDeliveryLog.bulkWrite(
        updates.slice(i, i + LIMITS.push.logWriteBatch).map(({ _id, $set }) => ({
          updateOne: {
            filter: { _id },
            update: { $set: { ...$set, receiptCheckedAt: checkedAt, updatedAt: checkedAt } },
          },
        })),
        { ordered: false },
      );
    }
    const dead = await markTokensDead(store, gone, 'DeviceNotRegistered', checkedAt);
    run.checked += rows.length;
    run.errors += failed.length;
    run.unreadable += unreadable.length;
    run.tokensMarkedDead += dead;
    if (rows.length < LIMITS.push.receiptsBatch) break;
  }
  return run;
}
