import { ObjectId } from 'mongodb';
import type { DataExportDoc } from '../../worker/accounts/documents';
import { exportDay, exportKey } from '../../worker/accounts/exports/naming';
import type { Api } from './worker-api';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A ready export of the rider stored directly, with `content` as its file in the local MEDIA bucket: for tests of
 * handing over, which need a file but not a build. `readyAt` defaults to now (so it expires in 7 days).
 */
export async function seedReadyExport(
  api: Api,
  riderId: string,
  {
    content = new Uint8Array([80, 75, 5, 6, ...new Array(18).fill(0)]),
    readyAt = new Date(),
    day = exportDay(readyAt),
  }: { content?: Uint8Array; readyAt?: Date; day?: string } = {},
) {
  const rider = new ObjectId(riderId);
  const _id = new ObjectId();
  const key = exportKey(rider, _id);
  const expiresAt = new Date(readyAt.getTime() + 7 * DAY_MS);
  const doc: DataExportDoc = {
    _id,
    riderId: rider,
    day,
    state: 'ready',
    dueAt: expiresAt,
    attempts: 1,
    leaseId: null,
    key,
    bytes: content.byteLength,
    readyAt,
    expiresAt,
    createdAt: readyAt,
    updatedAt: readyAt,
  };
  await api.env.MEDIA.put(key, content);
  await api.db((db) => db.collection('data_exports').insertOne(doc));
  return { id: _id.toHexString(), key, content, expiresAt };
}

/** The stored exports of a rider, as the database holds them. */
export const storedExports = (api: Api, riderId: string) =>
  api.db((db) =>
    db
      .collection<DataExportDoc>('data_exports')
      .find({ riderId: new ObjectId(riderId) })
      .toArray(),
  );
