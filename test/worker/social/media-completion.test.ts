import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../../worker/platform/db/store';
import { LIMITS } from '../../../worker/platform/limits';
import type { MediaUploadDoc } from '../../../worker/social/documents';
import { putPart } from '../../../worker/social/media/service';
import { register, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { sendPart } from '../../support/media';
import { video } from '../../support/media-fixtures';
import { createApi } from '../../support/worker-api';

const api = createApi('media-completion');
const PART = LIMITS.media.partBytes;

/** An upload of a two-part video with every part sent. */
async function sentUpload(rider: TestAccount) {
  const file = video({ totalBytes: PART + 1000 });
  const started = await call(api, 'POST', '/api/media/uploads', {
    as: rider,
    json: { type: 'video/mp4', bytes: file.length },
  });
  const upload = await started.json<any>();
  const part = (n: number) => file.subarray((n - 1) * PART, Math.min(file.length, n * PART));
  for (const n of [1, 2]) expect((await sendPart(api, rider, upload.uploadId, n, part(n))).status).toBe(200);
  return { uploadId: upload.uploadId as string, part };
}

const completeOf = (rider: TestAccount, uploadId: string) =>
  call(api, 'POST', `/api/media/uploads/${uploadId}/complete`, { as: rider });

describe('completing a video upload', () => {
  it('answers two completes sent together with the media or a 409, never a 500', async () => {
    const rider = await register(api);
    const { uploadId } = await sentUpload(rider);
    const answers = await Promise.all([completeOf(rider, uploadId), completeOf(rider, uploadId)]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    for (const res of answers) {
      const body = await res.json<any>();
      if (res.status === 409) expect(body.error).toMatch(/being completed/);
      else expect(body.mediaId).toBe(uploadId);
    }
  });

  it('finishes on a retry after the bucket completed the file but the media record was not written', async () => {
    const rider = await register(api);
    const { uploadId } = await sentUpload(rider);
    // What a complete that failed after R2's step left behind: the file is whole, the upload record still there.
    const upload = await api.db((db) => db.collection('media_uploads').findOne({ _id: new ObjectId(uploadId) }));
    const parts = Object.entries(upload!.parts as Record<string, { etag: string }>).map(([n, part]) => ({
      partNumber: Number(n),
      etag: part.etag,
    }));
    await api.env.MEDIA.resumeMultipartUpload(upload!.key, upload!.r2UploadId).complete(parts);

    const retried = await completeOf(rider, uploadId);
    expect(retried.status).toBe(200);
    expect(await retried.json<any>()).toMatchObject({ mediaId: uploadId, type: 'video/mp4', bytes: PART + 1000 });
  });

  it('refuses a part sent while the upload is being completed, or after, with a 409', async () => {
    const rider = await register(api);
    const { uploadId, part } = await sentUpload(rider);
    await api.db((db) =>
      db.collection('media_uploads').updateOne({ _id: new ObjectId(uploadId) }, { $set: { completingAt: new Date() } }),
    );
    const during = await sendPart(api, rider, uploadId, 2, part(2));
    expect(during.status).toBe(409);
    expect((await during.json<any>()).error).toMatch(/being completed/);
    await api.db((db) =>
      db.collection('media_uploads').updateOne({ _id: new ObjectId(uploadId) }, { $unset: { completingAt: '' } }),
    );
    expect((await completeOf(rider, uploadId)).status).toBe(200);
    const after = await sendPart(api, rider, uploadId, 2, part(2));
    expect(after.status).toBe(409);
    expect((await after.json<any>()).error).toMatch(/already completed/);
  });
});

describe('parts sent together', () => {
  it('keeps the type read from part 1 when another part read the upload before part 1 landed', async () => {
    const rider = await register(api);
    // Declared MP4, a QuickTime movie in fact.
    const file = video({ totalBytes: PART + 1000, brand: 'qt  ' });
    const started = await call(api, 'POST', '/api/media/uploads', {
      as: rider,
      json: { type: 'video/mp4', bytes: file.length },
    });
    const { uploadId } = await started.json<any>();
    const _id = new ObjectId(uploadId);
    const before = await api.db((db) => db.collection<MediaUploadDoc>('media_uploads').findOne({ _id }));
    expect((await sendPart(api, rider, uploadId, 1, file.subarray(0, PART))).status).toBe(200);
    // Part 2's request read the upload before part 1 landed and writes after it.
    await api.db((db) =>
      putPart(
        createStore(() => db),
        api.env.MEDIA,
        before!,
        2,
        file.subarray(PART),
      ),
    );
    const upload = await (await call(api, 'GET', `/api/media/uploads/${uploadId}`, { as: rider })).json<any>();
    expect(upload).toMatchObject({ type: 'video/quicktime', missing: [] });
  });
});
