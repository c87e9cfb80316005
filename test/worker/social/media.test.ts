import jpeg from 'jpeg-js';
import { ObjectId } from 'mongodb';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../../worker/platform/db/store';
import { LIMITS } from '../../../worker/platform/limits';
import { claimForProfile } from '../../../worker/social/media/service';
import { register, registerAdmin } from '../../support/accounts';
import { call } from '../../support/content';
import { newPost } from '../../support/feed';
import { sendPhoto, storedObject, uploadPhoto } from '../../support/media';
import {
  blackPng,
  gradient,
  holds,
  phoneJpeg,
  phoneWebp,
  pngClaiming,
  SECRET_TEXTS,
  video,
  withPngMetadata,
} from '../../support/media-fixtures';
import { createApi } from '../../support/worker-api';

const api = createApi('media');
const get = (path: string, headers: Record<string, string> = {}) => api.fetch(path, { headers });
const pathOf = (url: string) => new URL(url).pathname;

/** The PNG's IHDR and IDAT chunks, whole. */
function pictureChunks(png: Uint8Array): Uint8Array[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: Uint8Array[] = [];
  for (let pos = 8; pos < png.length; pos += 12 + view.getUint32(pos)) {
    const type = String.fromCharCode(...png.subarray(pos + 4, pos + 8));
    if (type === 'IHDR' || type === 'IDAT') chunks.push(png.subarray(pos, pos + 12 + view.getUint32(pos)));
  }
  return chunks;
}

/** The store with one interleaving forced: `meanwhile` runs just before the first media `updateMany`. */
function releaseAfter(store: Store, meanwhile: () => Promise<unknown>): Store {
  let raced = false;
  const media = new Proxy(store.media, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop !== 'updateMany') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<typeof target.updateMany>) => {
        if (!raced) {
          raced = true;
          await meanwhile();
        }
        return target.updateMany(...args);
      };
    },
  });
  return new Proxy(store, { get: (target, prop) => (prop === 'media' ? media : Reflect.get(target, prop)) });
}

describe('photo uploads', () => {
  it('stores a phone JPEG without its EXIF (GPS, serial, times), XMP or comments, with the same pixels and the Orientation', async () => {
    const rider = await register(api);
    const original = phoneJpeg(64, 48, 6);
    // Sent as PNG: the bytes decide, so it is stored and served as JPEG.
    const res = await sendPhoto(api, rider, original, 'image/png');
    expect(res.status).toBe(201);
    const media = await res.json<any>();
    expect(media).toMatchObject({ type: 'image/jpeg', width: 48, height: 64 });
    expect(pathOf(media.url)).toBe(`/api/media/${media.mediaId}`);

    const stored = (await storedObject(api, rider._id, media.mediaId))!;
    expect(stored.length).toBe(media.bytes);
    for (const text of [...SECRET_TEXTS, 'http://ns.adobe.com/xap']) expect(holds(stored, text), text).toBe(false);
    const before = jpeg.decode(original, { useTArray: true });
    const after = jpeg.decode(stored, { useTArray: true });
    expect([after.width, after.height]).toEqual([64, 48]);
    expect(after.data).toEqual(before.data);

    // Only its owner reads it until it is attached, and no cache keeps it.
    const own = await get(pathOf(media.url), { 'x-auth-token': rider.token });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(stored);
    expect((await get(pathOf(media.url))).status).toBe(404);
    const other = await register(api);
    expect((await get(pathOf(media.url), { 'x-auth-token': other.token })).status).toBe(404);
  });

  it('stores a PNG without its text, time and EXIF chunks, with the same header and image data', async () => {
    const rider = await register(api);
    const png = new PNG({ width: 20, height: 10 });
    png.data = Buffer.from(gradient(20, 10));
    const original = withPngMetadata(new Uint8Array(PNG.sync.write(png)), 1);
    const media = await uploadPhoto(api, rider, original);
    expect(media).toMatchObject({ type: 'image/png', width: 20, height: 10 });
    const stored = (await storedObject(api, rider._id, media.mediaId))!;
    for (const chunk of ['tEXt', 'iTXt', 'tIME', 'eXIf', 'Shot at the spot'])
      expect(holds(stored, chunk), chunk).toBe(false);
    // pngjs needs Node's zlib streams, absent in workerd; the Node unit test decodes the pixels. Here: the
    // chunks that hold the picture are byte for byte the original's.
    expect(pictureChunks(stored)).toEqual(pictureChunks(original));
  });

  it('stores a WebP without EXIF and XMP', async () => {
    const rider = await register(api);
    const media = await uploadPhoto(api, rider, phoneWebp(40, 30, 1).bytes);
    expect(media).toMatchObject({ type: 'image/webp', width: 40, height: 30 });
    const stored = (await storedObject(api, rider._id, media.mediaId))!;
    for (const text of SECRET_TEXTS) expect(holds(stored, text)).toBe(false);
  });

  it('refuses a photo of more pixels than the cap with a 422 naming it, however few bytes it takes', async () => {
    const rider = await register(api);
    const capMegapixels = LIMITS.media.photoMaxPixels / 1_000_000;
    const huge = await blackPng(16_000, 16_000);
    expect(huge.length).toBeLessThan(LIMITS.media.photoMaxBytes);
    for (const [bytes, side] of [
      [huge, '16000 × 16000'],
      [pngClaiming(60_000, 60_000), '60000 × 60000'],
    ] as const) {
      const res = await sendPhoto(api, rider, bytes, 'image/png');
      expect(res.status).toBe(422);
      const { error } = await res.json<{ error: string }>();
      expect(error).toContain(side);
      expect(error).toContain(`${capMegapixels} megapixels`);
    }
    expect(await api.db((db) => db.collection('media').countDocuments({ ownerId: new ObjectId(rider._id) }))).toBe(0);
    // At the cap's edge a photo is taken.
    const wide = Math.floor(LIMITS.media.photoMaxPixels / 1000);
    expect((await sendPhoto(api, rider, pngClaiming(wide, 1000), 'image/png')).status).toBe(201);
  });

  it.each([
    [new TextEncoder().encode('GIF89a\x01\x00\x01\x00'), 'a GIF image'],
    [new TextEncoder().encode('%PDF-1.7 hello'), 'a PDF document'],
    [video({ totalBytes: 2048 }), 'a video'],
  ])('refuses bytes of no supported photo type with a 415 naming them (%#)', async (bytes, named) => {
    const rider = await register(api);
    const res = await sendPhoto(api, rider, bytes, 'image/jpeg');
    expect(res.status).toBe(415);
    expect((await res.json<any>()).error).toContain(named);
    expect(await api.db((db) => db.collection('media').countDocuments({ ownerId: new ObjectId(rider._id) }))).toBe(0);
  });

  it('refuses a damaged photo with a 400', async () => {
    const rider = await register(api);
    const whole = phoneJpeg(16, 16, 1);
    const res = await sendPhoto(api, rider, whole.subarray(0, whole.length - 50));
    expect(res.status).toBe(400);
    expect((await res.json<any>()).error).toMatch(/damaged/);
  });

  it('answers 413 past the photo size and past the daily quota', async () => {
    const rider = await register(api);
    const huge = new Uint8Array(LIMITS.media.photoMaxBytes + 1);
    huge.set(phoneJpeg(8, 8, 1));
    const tooBig = await sendPhoto(api, rider, huge);
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json<any>()).error).toContain(`${LIMITS.media.photoMaxBytes / 1024 / 1024} MB`);

    const day = new Date().toISOString().slice(0, 10);
    await api.db((db) =>
      db.collection<{ _id: string; userId: ObjectId; day: string; bytes: number }>('media_usage').insertOne({
        _id: `${rider._id}:${day}`,
        userId: new ObjectId(rider._id),
        day,
        bytes: LIMITS.media.dailyBytesPerRider - 100,
      }),
    );
    const overQuota = await sendPhoto(api, rider, phoneJpeg(8, 8, 1));
    expect(overQuota.status).toBe(413);
    expect((await overQuota.json<any>()).error).toMatch(/quota/);
    // Another rider's day is their own.
    expect((await sendPhoto(api, await register(api), phoneJpeg(8, 8, 1))).status).toBe(201);
  });
});

describe('serving attached media', () => {
  it('is public with at most a day of caching, answers one range with 206, 416 past the end, and 304 for its ETag', async () => {
    const rider = await register(api);
    const media = await uploadPhoto(api, rider, phoneJpeg(32, 24, 1));
    const post = await newPost(api, rider, { text: 'Crooked grind', media: [{ mediaId: media.mediaId }] });
    expect(post.media).toEqual([{ type: 'image', url: media.url, mediaId: media.mediaId }]);
    const path = pathOf(media.url);

    const whole = await get(path);
    expect(whole.status).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(whole.headers.get('cache-control')!)![1]);
    expect(whole.headers.get('cache-control')).toMatch(/^public/);
    // A removed post's media must leave shared caches within a day: cached at most that long, never immutable.
    expect(maxAge).toBe(86_400);
    expect(whole.headers.get('cache-control')).not.toMatch(/immutable/);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = whole.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const bytes = new Uint8Array(await whole.arrayBuffer());

    const part = await get(path, { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(10, 20));
    const tail = await get(path, { range: 'bytes=-4' });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.subarray(-4));

    const past = await get(path, { range: `bytes=${bytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    const unchanged = await get(path, { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
  });
});

describe('serving media safely', () => {
  it('sandboxes the file and names it from its id and type, whole or in part', async () => {
    const rider = await register(api);
    const photo = await uploadPhoto(
      api,
      rider,
      withPngMetadata(new Uint8Array(PNG.sync.write(new PNG({ width: 4, height: 4 })))),
    );
    const auth = { 'x-auth-token': rider.token };
    for (const res of [
      await get(pathOf(photo.url), auth),
      await get(pathOf(photo.url), { ...auth, range: 'bytes=0-7' }),
    ]) {
      expect(res.status).toBeLessThan(300);
      // Opened directly, the file runs no script and saves under a name of ours, whatever its bytes hold.
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
      expect(res.headers.get('content-disposition')).toBe(`inline; filename="${photo.mediaId}.png"`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

describe('attaching media', () => {
  it("keeps link items working beside uploads, refuses another rider's upload as not found and an attached one with 409", async () => {
    const [rider, other] = [await register(api), await register(api)];
    const media = await uploadPhoto(api, rider, phoneJpeg(8, 8, 1));
    const link = { type: 'video', url: 'https://cdn.example.com/line.mp4' };
    const post = await newPost(api, rider, { media: [link, { mediaId: media.mediaId }] });
    expect(post.media).toEqual([link, { type: 'image', url: media.url, mediaId: media.mediaId }]);

    const again = await call(api, 'POST', '/api/feed', { as: rider, json: { media: [{ mediaId: media.mediaId }] } });
    expect(again.status).toBe(409);
    const stolen = await call(api, 'POST', '/api/feed', { as: other, json: { media: [{ mediaId: media.mediaId }] } });
    expect(stolen.status).toBe(404);
    expect((await stolen.json<any>()).details).toEqual([
      { field: 'media.0.mediaId', message: 'no such media of yours' },
    ]);
    const missing = await call(api, 'POST', '/api/feed', {
      as: rider,
      json: { media: [{ mediaId: new ObjectId().toHexString() }] },
    });
    expect(missing.status).toBe(404);
  });

  it('lets one of two posts racing for the same upload have it, and releases what a refused post claimed', async () => {
    const rider = await register(api);
    const [shared, own] = [
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
    ];
    const attempts = await Promise.all(
      [0, 1, 2].map(() =>
        call(api, 'POST', '/api/feed', { as: rider, json: { media: [{ mediaId: shared.mediaId }] } }),
      ),
    );
    expect(attempts.map((res) => res.status).sort()).toEqual([201, 409, 409]);

    // The first item is claimed, the second refused: the first is let go again.
    const refused = await call(api, 'POST', '/api/feed', {
      as: rider,
      json: { media: [{ mediaId: own.mediaId }, { mediaId: shared.mediaId }] },
    });
    expect(refused.status).toBe(409);
    expect((await refused.json<any>()).details[0].field).toBe('media.1.mediaId');
    expect((await newPost(api, rider, { media: [{ mediaId: own.mediaId }] })).media[0].mediaId).toBe(own.mediaId);
  });

  it('sets a profile picture from an upload: imageUri becomes its public URL, the previous picture is let go', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const first = await uploadPhoto(api, rider, phoneJpeg(8, 8, 1));
    const res = await call(api, 'PATCH', '/api/users/me', { as: rider, json: { imageMediaId: first.mediaId } });
    expect(res.status).toBe(200);
    expect((await res.json<any>()).imageUri).toBe(first.url);
    expect((await get(pathOf(first.url))).status).toBe(200);

    const second = await uploadPhoto(api, rider, phoneJpeg(8, 8, 1));
    await call(api, 'PATCH', '/api/users/me', { as: rider, json: { imageMediaId: second.mediaId } });
    const me = await (await call(api, 'GET', '/api/users/me', { as: rider })).json<any>();
    expect(me.imageUri).toBe(second.url);
    expect((await get(pathOf(first.url))).status).toBe(404);

    const stolen = await call(api, 'PATCH', '/api/users/me', { as: other, json: { imageMediaId: second.mediaId } });
    expect(stolen.status).toBe(404);
    const posted = await uploadPhoto(api, rider, phoneJpeg(8, 8, 1));
    await newPost(api, rider, { media: [{ mediaId: posted.mediaId }] });
    expect(
      (await call(api, 'PATCH', '/api/users/me', { as: rider, json: { imageMediaId: posted.mediaId } })).status,
    ).toBe(409);
    const both = await call(api, 'PATCH', '/api/users/me', {
      as: rider,
      json: { imageMediaId: posted.mediaId, imageUri: 'https://cdn.example.com/me.jpg' },
    });
    expect(both.status).toBe(400);
  });

  it('keeps the picture of the change that wrote last attached when two picture changes race', async () => {
    const rider = await register(api);
    const ownerId = new ObjectId(rider._id);
    const [first, a, b] = [
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
      await uploadPhoto(api, rider, phoneJpeg(8, 8, 1)),
    ];
    await call(api, 'PATCH', '/api/users/me', { as: rider, json: { imageMediaId: first.mediaId } });
    const urlOf = (id: ObjectId) => `${new URL(first.url).origin}/api/media/${id.toHexString()}`;
    await api.db(async (db) => {
      const store = createStore(() => db);
      const change = (s: Store, media: { mediaId: string }) =>
        claimForProfile(s, ownerId, new ObjectId(media.mediaId), urlOf);
      // B's whole change runs while A, having claimed its photo, is about to let go of the previous one.
      await change(
        releaseAfter(store, () => change(store, b)),
        a,
      );
    });
    const me = await (await call(api, 'GET', '/api/users/me', { as: rider })).json<any>();
    const attached = await api.db((db) =>
      db.collection('media').find({ ownerId, 'attachedTo.kind': 'profile' }).toArray(),
    );
    expect(attached.map((m) => urlOf(m._id as ObjectId))).toEqual([me.imageUri]);
    expect((await get(pathOf(me.imageUri))).status).toBe(200);
  });

  it('deletes the media of a deleted post, files included; a post removed by moderation hides its media', async () => {
    const [rider, reporter, admin] = [await register(api), await register(api), await registerAdmin(api)];
    const gone = await uploadPhoto(api, rider, phoneJpeg(8, 8, 1));
    const post = await newPost(api, rider, { media: [{ mediaId: gone.mediaId }] });
    expect((await call(api, 'DELETE', `/api/feed/${post._id}`, { as: rider })).status).toBe(200);
    expect((await get(pathOf(gone.url))).status).toBe(404);
    expect(await storedObject(api, rider._id, gone.mediaId)).toBeNull();

    const hidden = await uploadPhoto(api, rider, phoneJpeg(8, 8, 1));
    const reported = await newPost(api, rider, { media: [{ mediaId: hidden.mediaId }] });
    const report = await (
      await call(api, 'POST', '/api/reports', {
        as: reporter,
        json: { targetType: 'post', targetId: reported._id, reason: 'spam' },
      })
    ).json<any>();
    const resolved = await call(api, 'PATCH', `/api/admin/reports/${report._id}`, {
      as: admin,
      json: { action: 'remove' },
    });
    expect(resolved.status).toBe(200);
    expect((await get(pathOf(hidden.url))).status).toBe(404);
    expect((await get(pathOf(hidden.url), { 'x-auth-token': rider.token })).status).toBe(404);
  });
});
