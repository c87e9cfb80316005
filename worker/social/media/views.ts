import type { Context } from 'hono';
import type { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import type { MediaDoc, MediaUploadDoc } from '../documents';
import { missingParts, partCount } from './service';
import type { MediaType } from './sniff';

/** Where clients fetch media: PUBLIC_ORIGIN where set, else the origin the request came to. */
export const mediaUrl = (c: Context<AppEnv>, mediaId: ObjectId) =>
  `${c.env.PUBLIC_ORIGIN ?? new URL(c.req.url).origin}/api/media/${mediaId.toHexString()}`;

export function mediaView(c: Context<AppEnv>, media: MediaDoc) {
  return {
    mediaId: media._id.toHexString(),
    type: media.type,
    bytes: media.bytes,
    ...(media.width !== undefined ? { width: media.width, height: media.height } : {}),
    ...(media.durationMs !== undefined ? { durationMs: media.durationMs } : {}),
    url: mediaUrl(c, media._id),
    ...(media.withheld ? { held: true } : {}),
  };
}

export function uploadView(upload: MediaUploadDoc) {
  return {
    uploadId: upload._id.toHexString(),
    type: upload.type,
    bytes: upload.bytes,
    partSize: upload.partBytes,
    partCount: partCount(upload),
    received: Object.entries(upload.parts)
      .map(([n, part]) => ({ n: Number(n), bytes: part.bytes }))
      .sort((a, b) => a.n - b.n),
    missing: missingParts(upload),
  };
}

const EXTENSIONS: Record<MediaType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};

/** The name a saved file gets: its id and the extension of its type, plain ASCII, so no `filename*` is needed. */
export const servedFileName = (media: MediaDoc) => `${media._id.toHexString()}.${EXTENSIONS[media.type]}`;
