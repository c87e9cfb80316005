import { unzipSync } from 'fflate';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { writeExportArchive } from '../../../worker/accounts/exports/archive';
import { PERSONAL_DATA } from '../../../worker/data';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { register } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

const api = createApi('export-archive-large');

const POSTS = 3_000;
const VIDEOS = 6;
const VIDEO_BYTES = 4 * 1024 * 1024;
const PART_BYTES = 5 * 1024 * 1024;

describe('the export archive of a large rider', () => {
  it('holds at most two parts of the ZIP in memory, whatever the rider has', async () => {
    const rider = await register(api);
    const riderId = new ObjectId(rider._id);
    const createdAt = new Date('2026-01-01T00:00:00Z');
    const videoIds = Array.from({ length: VIDEOS }, () => new ObjectId());
    await api.db(async (db) => {
      await db.collection('feed_posts').insertMany(
        Array.from({ length: POSTS }, (_, n) => ({
          userId: riderId,
          text: `post ${n} `.repeat(20),
          media: [],
          counts: { love: 0, respect: 0, comments: 0 },
          createdAt,
        })),
      );
      await db
        .collection('media')
        .insertMany(
          videoIds.map((_id) => ({ _id, ownerId: riderId, key: `large/${_id}`, type: 'video/mp4', kind: 'video' })),
        );
    });
    for (const [n, id] of videoIds.entries())
      await api.env.MEDIA.put(`large/${id}`, new Uint8Array(VIDEO_BYTES).fill(n));

    const key = `exports/${crypto.randomUUID()}.zip`;
    // Over the database gateway, as a request's store reads: each page of posts is one reply.
    const { store } = openRequestConnection({ ...api.env, DB_ACCESS: 'gateway' });
    const result = await writeExportArchive(store, api.env.MEDIA, riderId, key, {
      personalData: PERSONAL_DATA,
      stillWanted: async () => true,
      partBytes: PART_BYTES,
    });
    if (result === 'withdrawn') throw new Error('withdrawn');

    expect(result.bytes).toBeGreaterThan(VIDEOS * VIDEO_BYTES);
    // The part being filled and at most one full part waiting for its upload: the rest went to R2 as it was made.
    expect(result.peakHeldBytes).toBeLessThanOrEqual(2 * PART_BYTES);
    expect(result.documents['feed_posts.json']).toBe(POSTS);
    const files = unzipSync(new Uint8Array(await (await api.env.MEDIA.get(key))!.arrayBuffer()));
    expect(JSON.parse(new TextDecoder().decode(files['feed_posts.json']))).toHaveLength(POSTS);
    for (const [n, id] of videoIds.entries()) {
      const video = files[`media/${id}.mp4`]!;
      expect([video.length, video[0], video[VIDEO_BYTES - 1]]).toEqual([VIDEO_BYTES, n, n]);
    }
  });
});
