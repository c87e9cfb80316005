import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../../worker/platform/db/store';
import { chargeUsage, refundUsage } from '../../../worker/social/media/usage';
import { createApi } from '../../support/worker-api';

const api = createApi('media-quota');

/**
 * The store with one interleaving forced: the first upsert of the usage row finds no row, `winner` then inserts
 * it, and the upsert's own insert collides on `_id`, as two first uploads of a day arriving together do.
 */
function firstWriteLosesRace(store: Store, winner: () => Promise<unknown>): Store {
  let raced = false;
  const usage = new Proxy(store.media_usage, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop !== 'updateOne') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<typeof target.updateOne>) => {
        if (raced) return target.updateOne(...args);
        raced = true;
        await winner();
        const { _id } = args[0] as { _id: string };
        const [userHex, day] = _id.split(':');
        // What the upsert does having matched nothing: insert its row, which now exists.
        await target.insertOne({ _id, userId: new ObjectId(userHex), day: day!, bytes: 0 });
        throw new Error('unreachable: the insert above collides');
      };
    },
  });
  return new Proxy(store, {
    get: (target, prop) => (prop === 'media_usage' ? usage : Reflect.get(target, prop)),
  });
}

describe('daily upload quota', () => {
  it("charges the first upload of a rider's day that lost the race to insert the day's row, not refusing it", async () => {
    const userId = new ObjectId();
    const charged = await api.db((db) => {
      const store = createStore(() => db);
      return chargeUsage(
        firstWriteLosesRace(store, () => chargeUsage(store, userId, 1000)),
        userId,
        2000,
      );
    });
    expect(charged).toBeTruthy();
    const row = await api.db((db) => db.collection('media_usage').findOne({ userId }));
    expect(row?.bytes).toBe(3000);
  });

  it('gives refunded bytes back to the day they were charged to, not the day of the refund', async () => {
    const userId = new ObjectId();
    const late = new Date('2026-03-01T23:59:59Z');
    await api.db(async (db) => {
      const store = createStore(() => db);
      const day = await chargeUsage(store, userId, 5000, late);
      expect(day).not.toBeNull();
      await chargeUsage(store, userId, 700, new Date('2026-03-02T00:00:01Z'));
      await refundUsage(store, userId, 5000, day!);
    });
    const rows = await api.db((db) => db.collection('media_usage').find({ userId }).sort({ day: 1 }).toArray());
    expect(rows.map((r) => [r.day, r.bytes])).toEqual([
      ['2026-03-01', 0],
      ['2026-03-02', 700],
    ]);
  });
});
