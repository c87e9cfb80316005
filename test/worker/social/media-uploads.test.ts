import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../../worker/platform/db/store';
import { LIMITS } from '../../../worker/platform/limits';
import { runMediaCleanup } from '../../../worker/social/media/cleanup';
import { register, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { newPost } from '../../support/feed';
import { sendPart, storedObject, uploadPhoto } from '../../support/media';
import { phoneJpeg, video } from '../../support/media-fixtures';
import { createApi } from '../../support/worker-api';

const api = createApi('media-uploads');
const PART = LIMITS.media.partBytes;
const HOUR = 60 * 60 * 1000;

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

async function startUpload(as: TestAccount, json: unknown) {
  return call(api, 'POST', '/api/media/uploads', { as, json });
}

describe('video uploads in parts', () => {
  it('survives an interruption after two parts: the upload says what is missing, the rest completes it', async () => {
    const rider = await register(api);
    // A QuickTime movie declared as MP4: part 1's bytes decide what is stored.
    const file = video({ totalBytes: 2 * PART + 1000, durationMs: 9_250, width: 1080, height: 1920, brand: 'qt  ' });
    const started = await startUpload(rider, { type: 'video/mp4', bytes: file.length });
    expect(started.status).toBe(201);
    const upload = await started.json<any>();
    expect(upload).toMatchObject({ partSize: PART, partCount: 3, received: [], missing: [1, 2, 3] });
    const part = (n: number) => file.subarray((n - 1) * PART, Math.min(file.length, n * PART));

    expect((await sendPart(api, rider, upload.uploadId, 1, part(1))).status).toBe(200);
    expect((await sendPart(api, rider, upload.uploadId, 2, part(2))).status).toBe(200);
    // The connection drops here; later the app asks what arrived.
    const resumed = await (await call(api, 'GET', `/api/media/uploads/${upload.uploadId}`, { as: rider })).json<any>();
    expect(resumed).toMatchObject({
      received: [
        { n: 1, bytes: PART },
        { n: 2, bytes: PART },
      ],
      missing: [3],
    });
    const early = await call(api, 'POST', `/api/media/uploads/${upload.uploadId}/complete`, { as: rider });
    expect(early.status).toBe(409);
    expect((await early.json<any>()).error).toContain('3');

    // A part sent again replaces itself.
    expect((await sendPart(api, rider, upload.uploadId, 2, part(2))).status).toBe(200);
    expect((await sendPart(api, rider, upload.uploadId, 3, part(3))).status).toBe(200);
    const done = await call(api, 'POST', `/api/media/uploads/${upload.uploadId}/complete`, { as: rider });
    expect(done.status).toBe(200);
    const media = await done.json<any>();
    expect(media).toMatchObject({
      mediaId: upload.uploadId,
      type: 'video/quicktime',
      bytes: file.length,
      width: 1080,
      height: 1920,
      durationMs: 9_250,
    });
    // Compared as one boolean: a failing toEqual on 10 MB arrays would print them whole.
    expect(sameBytes((await storedObject(api, rider._id, media.mediaId))!, file)).toBe(true);

    // Completing again (the answer was lost) answers the same media.
    const again = await call(api, 'POST', `/api/media/uploads/${upload.uploadId}/complete`, { as: rider });
    expect(await again.json()).toEqual(media);

    const scrub = await api.fetch(new URL(media.url).pathname, {
      headers: { 'x-auth-token': rider.token, range: `bytes=${PART}-${PART + 99}` },
    });
    expect(scrub.status).toBe(206);
    expect(scrub.headers.get('content-type')).toBe('video/quicktime');
    expect(sameBytes(new Uint8Array(await scrub.arrayBuffer()), file.subarray(PART, PART + 100))).toBe(true);
  });

  it('refuses parts of the wrong size or number, a first part that is no video, another rider, and videos past the limit', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const upload = await (await startUpload(rider, { type: 'video/mp4', bytes: 3000 })).json<any>();
    expect(upload).toMatchObject({ partCount: 1, missing: [1] });
    expect((await sendPart(api, rider, upload.uploadId, 1, video({ totalBytes: 2000 }))).status).toBe(400);
    expect((await sendPart(api, rider, upload.uploadId, 1, new Uint8Array(3001))).status).toBe(413);
    expect((await sendPart(api, rider, upload.uploadId, 2, new Uint8Array(10))).status).toBe(400);
    const photo = new Uint8Array(3000);
    photo.set(phoneJpeg(8, 8, 1).subarray(0, 3000));
    const refused = await sendPart(api, rider, upload.uploadId, 1, photo);
    expect(refused.status).toBe(415);
    expect((await refused.json<any>()).error).toContain('a photo (image/jpeg)');
    expect((await sendPart(api, other, upload.uploadId, 1, video({ totalBytes: 3000 }))).status).toBe(404);
    expect((await call(api, 'GET', `/api/media/uploads/${upload.uploadId}`, { as: other })).status).toBe(404);

    const tooBig = await startUpload(rider, { type: 'video/mp4', bytes: LIMITS.media.videoMaxBytes + 1 });
    expect(tooBig.status).toBe(413);
    expect((await startUpload(rider, { type: 'video/webm', bytes: 10 })).status).toBe(400);
  });
});

describe('media cleanup run', () => {
  it('deletes media not attached within a day and aborts uploads not completed within days; attached and fresh stay', async () => {
    const rider = await register(api);
    const [stale, fresh, attached] = [
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
    ];
    await newPost(api, rider, { media: [{ mediaId: attached.mediaId }] });
    const upload = await (await startUpload(rider, { type: 'video/mp4', bytes: 3000 })).json<any>();
    await sendPart(api, rider, upload.uploadId, 1, video({ totalBytes: 3000 }));
    const day = LIMITS.media.unattachedHours * HOUR;
    await api.db(async (db) => {
      const old = new Date(Date.now() - day - HOUR);
      await db
        .collection('media')
        .updateMany(
          { _id: { $in: [stale, attached].map((m) => new ObjectId(m.mediaId)) } },
          { $set: { createdAt: old } },
        );
      await db
        .collection('media_uploads')
        .updateOne(
          { _id: new ObjectId(upload.uploadId) },
          { $set: { createdAt: new Date(Date.now() - LIMITS.media.uploadDays * 24 * HOUR - HOUR) } },
        );
    });

    const result = await api.db((db) =>
      runMediaCleanup(
        createStore(() => db),
        api.env,
      ),
    );
    expect(result).toMatchObject({ media: 1, uploads: 1 });
    expect(await storedObject(api, rider._id, stale.mediaId)).toBeNull();
    expect(await storedObject(api, rider._id, fresh.mediaId)).not.toBeNull();
    expect(await storedObject(api, rider._id, attached.mediaId)).not.toBeNull();
    const left = await api.db((db) =>
      db
        .collection('media')
        .find({ ownerId: new ObjectId(rider._id) }, { projection: { _id: 1 } })
        .toArray(),
    );
    expect(left.map(({ _id }) => _id.toHexString()).sort()).toEqual([fresh.mediaId, attached.mediaId].sort());
    expect((await call(api, 'GET', `/api/media/uploads/${upload.uploadId}`, { as: rider })).status).toBe(404);
    // Running again finds nothing more to do.
    expect(
      await api.db((db) =>
        runMediaCleanup(
          createStore(() => db),
          api.env,
        ),
      ),
    ).toMatchObject({ media: 0, uploads: 0 });
  });
});

describe('account deletion', () => {
  it("deletes the rider's photos and videos, their files in the bucket included, and aborts uploads in progress", async () => {
    const [rider, bystander] = [await register(api), await register(api)];
    const [posted, loose] = [
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
    ];
    await newPost(api, rider, { media: [{ mediaId: posted.mediaId }] });
    await startUpload(rider, { type: 'video/mp4', bytes: 3000 });
    const kept = await uploadPhoto(api, bystander, phoneJpeg(8, 8, 1));

    const res = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(res.status).toBe(200);
    expect(await storedObject(api, rider._id, posted.mediaId)).toBeNull();
    expect(await storedObject(api, rider._id, loose.mediaId)).toBeNull();
    const owner = new ObjectId(rider._id);
    const rows = await api.db(async (db) =>
      Promise.all(
        [
          ['media', { ownerId: owner }],
          ['media_uploads', { ownerId: owner }],
          ['media_usage', { userId: owner }],
        ].map(([name, filter]) => db.collection(name as string).countDocuments(filter as object)),
      ),
    );
    expect(rows).toEqual([0, 0, 0]);
    expect(await storedObject(api, bystander._id, kept.mediaId)).not.toBeNull();
  });
});
