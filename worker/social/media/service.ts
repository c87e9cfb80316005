import { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { MediaDoc, MediaUploadDoc } from '../documents';
import { blockReader, readVideoFacts } from './mp4';
import { sniff, type VideoType } from './sniff';
import { stripMetadata } from './strip';
import { MalformedImage } from './stripped';
import { chargeUsage, refundUsage } from './usage';
import { blankVideoLocation } from './video-location';

// Every query and bucket write of media. Refused outcomes come back as values, never HTTP statuses.

export type Unsupported = { outcome: 'unsupported'; what: string };
export type Malformed = { outcome: 'malformed'; reason: string };
export type TooManyPixels = { outcome: 'too-many-pixels'; width: number; height: number };

/** Objects live under their owner, so a bucket listing by prefix finds one rider's files. */
const keyOf = (ownerId: ObjectId, mediaId: ObjectId) => `media/${ownerId.toHexString()}/${mediaId.toHexString()}`;

/** A photo sent in one request: sniffed, stripped of its metadata, counted against the day's quota, stored. */
export async function storePhoto(
  store: Store,
  bucket: R2Bucket,
  ownerId: ObjectId,
  sent: Uint8Array,
): Promise<MediaDoc | Unsupported | Malformed | TooManyPixels | 'video-sent-as-photo' | 'over-quota'> {
  const sniffed = sniff(sent);
  if (!sniffed.supported) return { outcome: 'unsupported', what: sniffed.what };
  if (sniffed.kind === 'video') return 'video-sent-as-photo';
  let stripped: ReturnType<typeof stripMetadata>;
  try {
    stripped = stripMetadata(sniffed.type as Parameters<typeof stripMetadata>[0], sent);
  } catch (err) {
    if (err instanceof MalformedImage) return { outcome: 'malformed', reason: err.message };
    throw err;
  }
  // Refused from the header's size alone, before anything is stored: the picture is never decoded here.
  if (stripped.width * stripped.height > LIMITS.media.photoMaxPixels) {
    return { outcome: 'too-many-pixels', width: stripped.width, height: stripped.height };
  }
  const bytes = stripped.bytes.length;
  const day = await chargeUsage(store, ownerId, bytes);
  if (day === null) return 'over-quota';
  const _id = new ObjectId();
  const key = keyOf(ownerId, _id);
  try {
    const object = await bucket.put(key, stripped.bytes, { httpMetadata: { contentType: sniffed.type } });
    const now = new Date();
    const media: MediaDoc = {
      _id,
      ownerId,
      key,
      type: sniffed.type,
      kind: 'image',
      bytes,
      width: stripped.width,
      height: stripped.height,
      etag: object.httpEtag,
      createdAt: now,
      updatedAt: now,
    };
    await store.media.insertOne(media);
    return media;
  } catch (err) {
    await refundUsage(store, ownerId, bytes, day);
    await bucket.delete(key);
    throw err;
  }
}

/** Parts a video of `bytes` is sent in. */
export const partCount = (upload: Pick<MediaUploadDoc, 'bytes' | 'partBytes'>) =>
  Math.max(1, Math.ceil(upload.bytes / upload.partBytes));

/** The exact size part `n` must have: every part is `partBytes` but the last, which holds the rest. */
export function partSize(upload: Pick<MediaUploadDoc, 'bytes' | 'partBytes'>, n: number): number | undefined {
  const count = partCount(upload);
  if (n < 1 || n > count) return undefined;
  return n < count ? upload.partBytes : upload.bytes - (count - 1) * upload.partBytes;
}

/** Part numbers not received yet, in order. */
export const missingParts = (upload: MediaUploadDoc) =>
  Array.from({ length: partCount(upload) }, (_, i) => i + 1).filter((n) => !upload.parts[String(n)]);

/** Starts a video upload: the declared size is checked and counted against the day's quota, R2's multipart upload begun. */
export async function startUpload(
  store: Store,
  bucket: R2Bucket,
  ownerId: ObjectId,
  declared: { type: VideoType; bytes: number },
): Promise<MediaUploadDoc | 'too-large' | 'over-quota'> {
  if (declared.bytes > LIMITS.media.videoMaxBytes) return 'too-large';
  if ((await chargeUsage(store, ownerId, declared.bytes)) === null) return 'over-quota';
  const _id = new ObjectId();
  const key = keyOf(ownerId, _id);
  const multipart = await bucket.createMultipartUpload(key, { httpMetadata: { contentType: declared.type } });
  const now = new Date();
  const upload: MediaUploadDoc = {
    _id,
    ownerId,
    key,
    r2UploadId: multipart.uploadId,
    type: declared.type,
    bytes: declared.bytes,
    partBytes: LIMITS.media.partBytes,
    parts: {},
    createdAt: now,
    updatedAt: now,
  };
  await store.media_uploads.insertOne(upload);
  return upload;
}

/** The owner's upload in progress; another rider's reads as none. */
export const findUpload = (store: Store, ownerId: ObjectId, uploadId: ObjectId) =>
  store.media_uploads.findOne({ _id: uploadId, ownerId });

/**
 * Stores part `n` (its size already checked by the caller against `partSize`). Part 1 carries the file's
 * signature: what it is decides the stored type, and anything but a video is refused before it is kept.
 */
export async function putPart(
  store: Store,
  bucket: R2Bucket,
  upload: MediaUploadDoc,
  n: number,
  bytes: Uint8Array,
): Promise<MediaUploadDoc | Unsupported | 'gone' | 'completing' | 'completed'> {
  if (upload.completingAt) return 'completing';
  // Only part 1 writes the type: another part's copy of the upload may predate it and hold the declared one.
  const set: Record<string, unknown> = { updatedAt: new Date() };
  if (n === 1) {
    const sniffed = sniff(bytes);
    if (!sniffed.supported) return { outcome: 'unsupported', what: sniffed.what };
    if (sniffed.kind !== 'video') return { outcome: 'unsupported', what: `a photo (${sniffed.type})` };
    set.type = sniffed.type as VideoType;
  }
  let etag: string;
  try {
    etag = (await bucket.resumeMultipartUpload(upload.key, upload.r2UploadId).uploadPart(n, bytes)).etag;
  } catch (err) {
    if (!isNoSuchUpload(err)) throw err;
    return (await findOwnMedia(store, upload.ownerId, upload._id)) ? 'completed' : 'gone';
  }
  // One field per part: a part sent again (a retry after a dropped connection) replaces its own entry only.
  const updated = await store.media_uploads.findOneAndUpdate(
    { _id: upload._id, completingAt: { $exists: false } },
    { $set: { ...set, [`parts.${n}`]: { etag, bytes: bytes.length } } },
    { returnDocument: 'after' },
  );
  if (updated) return updated;
  if (await store.media_uploads.findOne({ _id: upload._id })) return 'completing';
  return (await findOwnMedia(store, upload.ownerId, upload._id)) ? 'completed' : 'gone';
}

/** R2's answer for a multipart upload it no longer has (completed or aborted). */
const isNoSuchUpload = (err: unknown) =>
  err instanceof Error && /\(10024\)|multipart upload does not exist/i.test(err.message);

/** The owner's media, whoever may see it; another rider's reads as none. */
export const findOwnMedia = (store: Store, ownerId: ObjectId, mediaId: ObjectId) =>
  store.media.findOne({ _id: mediaId, ownerId });

/**
 * Completes the upload into a media record with the upload's id (so a retried complete whose answer was lost
 * finds the same media), reading duration and size from the stored file's movie box. The upload is claimed
 * first, so one complete works on it at a time and no part lands meanwhile.
 */
export async function completeUpload(
  store: Store,
  bucket: R2Bucket,
  ownerId: ObjectId,
  uploadId: ObjectId,
): Promise<MediaDoc | 'not-found' | 'completing' | 'lost' | { outcome: 'missing-parts'; missing: number[] }> {
  const found = await findUpload(store, ownerId, uploadId);
  if (!found) return (await findOwnMedia(store, ownerId, uploadId)) ?? 'not-found';
  const missing = missingParts(found);
  if (missing.length) return { outcome: 'missing-parts', missing };
  const now = new Date();
  const stale = new Date(now.getTime() - LIMITS.media.completeClaimSeconds * 1000);
  const upload = await store.media_uploads.findOneAndUpdate(
    { _id: uploadId, ownerId, $or: [{ completingAt: { $exists: false } }, { completingAt: { $lt: stale } }] },
    { $set: { completingAt: now, updatedAt: now } },
    { returnDocument: 'after' },
  );
  if (!upload) {
    if (await findUpload(store, ownerId, uploadId)) return 'completing';
    return (await findOwnMedia(store, ownerId, uploadId)) ?? 'not-found';
  }
  try {
    const completed = await completeInBucket(bucket, upload);
    if (!completed) {
      await release(store, upload);
      return 'lost';
    }
    const size = completed.size;
    const read = blockReader(
      async (offset: number, length: number) => {
        if (offset >= size || length <= 0) return new Uint8Array(0);
        const slice = await bucket.get(upload.key, { range: { offset, length: Math.min(length, size - offset) } });
        return slice ? new Uint8Array(await slice.arrayBuffer()) : new Uint8Array(0);
      },
      LIMITS.media.movieReadBlockBytes,
      LIMITS.media.movieReadBlocksKept,
    );
    // No location leaves a rider's phone through us: blanked before the media is recorded, so before anyone reads it.
    const stored = await blankVideoLocation(bucket, completed, read);
    const facts = await readVideoFacts(read, stored.size, LIMITS.media.movieBoxReadBytes);
    const media: MediaDoc = {
      _id: upload._id,
      ownerId,
      key: upload.key,
      type: upload.type,
      kind: 'video',
      bytes: stored.size,
      ...facts,
      etag: stored.httpEtag,
      createdAt: now,
      updatedAt: now,
    };
    // Keyed by the upload's id: a retry after a failure past this point finds its own record.
    await onDuplicateKey(
      () => store.media.insertOne(media),
      () => undefined,
    );
  } catch (err) {
    await release(store, upload);
    throw err;
  }
  await store.media_uploads.deleteOne({ _id: upload._id });
  return (await findOwnMedia(store, ownerId, uploadId)) ?? 'not-found';
}

/** Lets another complete take the upload after this one stopped short. */
const release = (store: Store, upload: MediaUploadDoc) =>
  store.media_uploads.updateOne(
    { _id: upload._id, completingAt: upload.completingAt },
    { $unset: { completingAt: '' } },
  );

/**
 * R2's multipart complete; when R2 no longer has the multipart upload, the file an earlier complete made
 * (which then failed before its record was written), or null when there is none: the upload was aborted.
 */
async function completeInBucket(bucket: R2Bucket, upload: MediaUploadDoc): Promise<R2Object | null> {
  const parts = Object.entries(upload.parts)
    .map(([n, part]) => ({ partNumber: Number(n), etag: part.etag }))
    .sort((a, b) => a.partNumber - b.partNumber);
  try {
    return await bucket.resumeMultipartUpload(upload.key, upload.r2UploadId).complete(parts);
  } catch (err) {
    if (!isNoSuchUpload(err)) throw err;
    return bucket.head(upload.key);
  }
}

/**
 * Media a reader may fetch: attached media is public, media not yet attached or held for review only its
 * owner's, and media of a post removed by moderation no one's. `null` reads as not found.
 */
export async function findServable(
  store: Store,
  mediaId: ObjectId,
  readerId: ObjectId | null,
): Promise<{ media: MediaDoc; isPublic: boolean } | null> {
  const media = await store.media.findOne({ _id: mediaId });
  if (!media || media.hiddenAt) return null;
  // A photo the moderation model flagged is its owner's alone, attached or not (worker/social/visibility.ts).
  if (media.attachedTo && !media.withheld) return { media, isPublic: true };
  return readerId?.equals(media.ownerId) ? { media, isPublic: false } : null;
}

/** Why one of a rider's media cannot be attached. */
export type AttachRefused = 'media-not-found' | 'media-attached' | 'not-a-photo' | 'media-listed-twice';

/**
 * Attaches the owner's media to a new post, each item by one conditional update (unattached, theirs, shown):
 * two posts claiming one item cannot both win. On a refusal the items claimed so far are released.
 */
export async function claimForPost(
  store: Store,
  ownerId: ObjectId,
  postId: ObjectId,
  mediaIds: ObjectId[],
): Promise<MediaDoc[] | { refused: AttachRefused; at: number }> {
  const hex = mediaIds.map((id) => id.toHexString());
  const twice = hex.findIndex((id, i) => hex.indexOf(id) !== i);
  if (twice >= 0) return { refused: 'media-listed-twice', at: twice };
  const claimed: MediaDoc[] = [];
  for (const [at, _id] of mediaIds.entries()) {
    const media = await store.media.findOneAndUpdate(
      { _id, ownerId, attachedTo: { $exists: false }, hiddenAt: { $exists: false } },
      { $set: { attachedTo: { kind: 'post', postId }, updatedAt: new Date() } },
      { returnDocument: 'after' },
    );
    if (!media) {
      await releaseFromPost(store, postId);
      const own = await findOwnMedia(store, ownerId, _id);
      return { refused: own && !own.hiddenAt ? 'media-attached' : 'media-not-found', at };
    }
    claimed.push(media);
  }
  return claimed;
}

/** Lets go of media claimed for a post that was then not made. */
export async function releaseFromPost(store: Store, postId: ObjectId): Promise<void> {
  await store.media.updateMany(
    { 'attachedTo.postId': postId },
    { $unset: { attachedTo: '' }, $set: { updatedAt: new Date() } },
  );
}

/**
 * Makes the owner's photo their profile picture, by one conditional update (unattached or already their
 * picture), and points the rider's `imageUri` at `url`. The picture the rider held until that write is let go
 * (the cleanup run deletes it): read by the same write, so two changes racing each let go of exactly the one
 * they replaced, never the other's.
 */
export async function claimForProfile(
  store: Store,
  ownerId: ObjectId,
  mediaId: ObjectId,
  urlOf: (mediaId: ObjectId) => string,
): Promise<MediaDoc | AttachRefused> {
  const media = await store.media.findOneAndUpdate(
    {
      _id: mediaId,
      ownerId,
      kind: 'image',
      hiddenAt: { $exists: false },
      $or: [{ attachedTo: { $exists: false } }, { 'attachedTo.kind': 'profile' }],
    },
    { $set: { attachedTo: { kind: 'profile' }, updatedAt: new Date() } },
    { returnDocument: 'after' },
  );
  if (!media) {
    const own = await findOwnMedia(store, ownerId, mediaId);
    if (!own || own.hiddenAt) return 'media-not-found';
    return own.kind === 'image' ? 'media-attached' : 'not-a-photo';
  }
  const url = urlOf(mediaId);
  const before = await store.users.findOneAndUpdate(
    { _id: ownerId },
    { $set: { imageUri: url, updatedAt: new Date() } },
    { returnDocument: 'before', projection: { imageUri: 1 } },
  );
  const replaced = before?.imageUri;
  if (replaced && replaced !== url) {
    const previous = await store.media
      .find({ ownerId, 'attachedTo.kind': 'profile', _id: { $ne: mediaId } }, { projection: { _id: 1 } })
      .toArray();
    const ids = previous.filter(({ _id }) => urlOf(_id) === replaced).map(({ _id }) => _id);
    if (ids.length) {
      await store.media.updateMany(
        { _id: { $in: ids }, 'attachedTo.kind': 'profile' },
        { $unset: { attachedTo: '' }, $set: { updatedAt: new Date() } },
      );
    }
  }
  return media;
}

/** A deleted post's media go with it, files included. */
export async function deletePostMedia(store: Store, bucket: R2Bucket, postId: ObjectId): Promise<void> {
  for (const { _id } of await store.media.find({ 'attachedTo.postId': postId }, { projection: { _id: 1 } }).toArray()) {
    const removed = await store.media.findOneAndDelete({ _id });
    if (removed) await bucket.delete(removed.key);
  }
}

/** Moderation removed the post: its media are served to no one from now on (and deleted after LIMITS.media.hiddenDays). */
export async function hidePostMedia(store: Store, postId: ObjectId): Promise<void> {
  const now = new Date();
  await store.media.updateMany({ 'attachedTo.postId': postId }, { $set: { hiddenAt: now, updatedAt: now } });
}
