import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { register, type TestAccount } from '../../support/accounts';
import { call } from '../../support/content';
import { sendPart, storedObject } from '../../support/media';
import {
  holds,
  LOCI_COORDINATES,
  phoneVideo,
  SAMPLE_MARK,
  VIDEO_COORDINATES,
  type VideoLocationStyle,
} from '../../support/media-fixtures';
import { createApi } from '../../support/worker-api';

const api = createApi('media-video-location');
const PART = LIMITS.media.partBytes;

/** Uploads the file in parts and completes it; the media answered. */
async function uploadVideo(rider: TestAccount, file: Uint8Array) {
  const started = await call(api, 'POST', '/api/media/uploads', {
    as: rider,
    json: { type: 'video/mp4', bytes: file.length },
  });
  const { uploadId, partCount } = await started.json<{ uploadId: string; partCount: number }>();
  for (let n = 1; n <= partCount; n++) {
    const part = file.subarray((n - 1) * PART, Math.min(file.length, n * PART));
    expect((await sendPart(api, rider, uploadId, n, part)).status).toBe(200);
  }
  const done = await call(api, 'POST', `/api/media/uploads/${uploadId}/complete`, { as: rider });
  expect(done.status).toBe(200);
  return done.json<{ mediaId: string; bytes: number; durationMs: number; width: number; height: number }>();
}

describe('video location', () => {
  it.each([
    ['iphone-keys', true],
    ['android-xyz', true],
    ['loci', false],
    ['xmp-uuid', true],
  ] as [VideoLocationStyle, boolean][])(
    'is blanked from a %s video before it is served (movie box last: %s): same size, samples where they were',
    async (style, moovLast) => {
      const rider = await register(api);
      const { bytes, sampleOffset } = phoneVideo(style, { totalBytes: PART + 4096, moovLast });
      const media = await uploadVideo(rider, bytes);
      expect(media).toMatchObject({ bytes: bytes.length, durationMs: 9250, width: 1920, height: 1080 });
      const served = await api.fetch(`/api/media/${media.mediaId}`, { headers: { 'x-auth-token': rider.token } });
      expect(served.status).toBe(200);
      const body = new Uint8Array(await served.arrayBuffer());
      const stored = (await storedObject(api, rider._id, media.mediaId))!;
      for (const file of [body, stored]) {
        expect(file.length).toBe(bytes.length);
        for (const secret of [VIDEO_COORDINATES, LOCI_COORDINATES, 'GPSLatitude']) {
          expect(holds(file, secret), String(secret)).toBe(false);
        }
        expect(String.fromCharCode(...file.subarray(sampleOffset, sampleOffset + SAMPLE_MARK.length))).toBe(
          SAMPLE_MARK,
        );
      }
    },
  );
});
