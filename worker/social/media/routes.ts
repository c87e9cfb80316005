import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import { screenPhoto } from '../../moderation/model/screen';
import { moderationModel } from '../../moderation/model/settings';
import type { AppEnv } from '../../platform/app-env';
import { readCapped } from '../../platform/http/capped-body';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { parseRange } from '../../platform/http/ranges';
import { refusal } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { auth } from '../../platform/middleware/auth';
import { OPTIONAL_TOKEN_REFUSALS, optionalCaller, PUBLIC_OR_TOKEN } from '../../platform/middleware/optional-token';
import { recordModerationCheck } from '../../platform/ops/metrics';
import type { MediaDoc } from '../documents';
import { deferCheck } from '../review/checks';
import { holdForReview } from '../review/hold';
import { photoInput } from '../review/photo-input';
import { MEDIA_REFUSALS } from './refusals';
import {
  binaryContent,
  Media,
  MediaParam,
  NewUpload,
  PartParam,
  partBody,
  photoBody,
  Upload,
  UploadParam,
} from './schema';
import {
  completeUpload,
  findOwnMedia,
  findServable,
  findUpload,
  partCount,
  partSize,
  putPart,
  startUpload,
  storePhoto,
} from './service';
import { PHOTO_TYPES, VIDEO_TYPES } from './sniff';
import { mediaView, servedFileName, uploadView } from './views';

const TAGS = ['media'];
const MB = 1024 * 1024;
const noUpload = errorResponse('No such upload of yours');
const unsupported = errorResponse('The bytes are of no supported type; the message names what they are');

/** Requests whose body is file bytes, read here under the media limits rather than the JSON body limit. */
export const sendsMediaBytes = (method: string, path: string) =>
  (method === 'POST' && /^\/api\/media\/?$/.test(path)) ||
  (method === 'PUT' && /^\/api\/media\/uploads\/[^/]+\/parts\/[^/]+$/.test(path));

const uploadPhoto = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Upload a photo (JPEG, PNG or WebP) as the request body',
  description: `The type is read from the bytes (a JPEG sent as image/png is stored and served as JPEG). Every metadata block (EXIF with GPS, XMP, IPTC, comments, text and time chunks) is removed before the photo is stored, the Orientation alone kept; the image data is not re-encoded. At most ${LIMITS.media.photoMaxBytes / MB} MB and ${LIMITS.media.photoMaxPixels / 1_000_000} megapixels, and ${LIMITS.media.dailyBytesPerRider / MB} MB a day per rider (docs/media.md). Attach it within ${LIMITS.media.unattachedHours} hours (a post's \`media: [{mediaId}]\` or \`PATCH /api/users/me {imageMediaId}\`) or it is deleted.`,
  middleware: [auth()] as const,
  request: photoBody,
  responses: {
    201: jsonResponse(Media, 'The stored photo'),
    400: errorResponse('The file is damaged (it starts like a photo but breaks its format)'),
    413: errorResponse('Larger than a photo may be, or past the daily quota'),
    415: unsupported,
    422: errorResponse(`More pixels than a photo may have (${LIMITS.media.photoMaxPixels / 1_000_000} megapixels)`),
  },
});

const newUpload = defineRoute({
  method: 'post',
  path: '/uploads',
  tags: TAGS,
  summary: 'Start a video upload (MP4 or QuickTime), sent in parts that survive a dropped connection',
  description: `Answers the part size: send parts 1…partCount with PUT …/parts/{n} (each exactly partSize bytes but the last), in any order, again after a failure; GET the upload to learn which arrived, then POST …/complete. At most ${LIMITS.media.videoMaxBytes / MB} MB; uploads not completed within ${LIMITS.media.uploadDays} days are aborted.`,
  middleware: [auth()] as const,
  request: jsonBody(NewUpload),
  responses: {
    201: jsonResponse(Upload, 'The upload, with no parts yet'),
    413: errorResponse('Larger than a video may be, or past the daily quota'),
  },
});

const getUpload = defineRoute({
  method: 'get',
  path: '/uploads/{uploadId}',
  tags: TAGS,
  summary: 'Which parts of your upload arrived, and which are missing',
  middleware: [auth()] as const,
  request: { params: UploadParam },
  responses: { 200: jsonResponse(Upload, 'The upload'), 404: noUpload },
});

const sendPart = defineRoute({
  method: 'put',
  path: '/uploads/{uploadId}/parts/{n}',
  tags: TAGS,
  summary: 'Send part n of a video upload as the request body (again to replace it)',
  description:
    'Part 1 carries the file signature: bytes that are not MP4 or QuickTime are refused (415) and the type read there is the one stored.',
  middleware: [auth()] as const,
  request: { params: PartParam, ...partBody },
  responses: {
    200: jsonResponse(Upload, 'The upload with this part'),
    400: errorResponse('No such part number, or the part is not the size it must be'),
    404: noUpload,
    409: errorResponse('The upload is being completed or is already completed: no part may change it'),
    413: errorResponse('The part is larger than it must be'),
    415: unsupported,
  },
});

const complete = defineRoute({
  method: 'post',
  path: '/uploads/{uploadId}/complete',
  tags: TAGS,
  summary: 'Complete a video upload once every part arrived: answers the media (again when repeated)',
  middleware: [auth()] as const,
  request: { params: UploadParam },
  responses: {
    200: jsonResponse(Media, 'The stored video, with its duration and size where the file carries them'),
    404: noUpload,
    409: errorResponse(
      'Parts are missing (the message lists them), another complete of this upload is under way (complete again in a moment), or the storage no longer holds the upload',
    ),
  },
});

const SAFETY_HEADERS = {
  'Content-Security-Policy': z.literal('sandbox').describe('opened directly, the file runs no script'),
  'Content-Disposition': z.string().describe('inline; filename="<mediaId>.<jpg|png|webp|mp4|mov>"'),
  'X-Content-Type-Options': z.literal('nosniff'),
};
const RANGE_HEADERS = z.object({
  'Content-Range': z.string().describe('bytes first-last/size'),
  ETag: z.string(),
  'Accept-Ranges': z.string(),
  ...SAFETY_HEADERS,
});
const SERVE_HEADERS = z.object({
  ...SAFETY_HEADERS,
  ETag: z.string(),
  'Cache-Control': z
    .string()
    .describe(
      `public media: public, max-age=${LIMITS.media.publicMaxAgeSeconds}; media only its owner sees yet: private, no-store`,
    ),
  'Accept-Ranges': z.string(),
});
const SERVED_TYPES = [...PHOTO_TYPES, ...VIDEO_TYPES];

const serve = defineRoute({
  method: 'get',
  path: '/{mediaId}',
  tags: TAGS,
  summary: 'A photo or video: public once attached to a post or profile, its owner only until then',
  description:
    'Send x-auth-token to read your own media not yet attached. Answers one byte range (206, video scrubbing; 416 when unsatisfiable) and If-None-Match (304).',
  security: PUBLIC_OR_TOKEN,
  request: { params: MediaParam },
  responses: {
    200: { description: 'The file', content: binaryContent(SERVED_TYPES), headers: SERVE_HEADERS },
    206: { description: 'The byte range asked for', content: binaryContent(SERVED_TYPES), headers: RANGE_HEADERS },
    304: { description: 'Not modified: the ETag sent in If-None-Match still holds' },
    ...OPTIONAL_TOKEN_REFUSALS,
    404: errorResponse('No such media, or not yours while unattached'),
    416: errorResponse(
      'The range asked for starts past the end',
      z.object({ 'Content-Range': z.string().describe('bytes */size') }),
    ),
  },
});

const ownerOf = (c: Context<AppEnv>) => new ObjectId(c.var.user._id);

/** Whether If-None-Match names this ETag (or any, `*`); weak and strong compare alike, as RFC 9110 says for GET. */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * A stored photo as the moderation model sees it (docs/moderation.md, "Held for review"): flagged, it is held (its
 * owner's alone); unanswered, it stays as it is and is checked later. The photo sent is read back stripped of its
 * metadata, so no location leaves for the model. Without a model, the photo as stored.
 */
async function screenUpload(c: Context<AppEnv>, media: MediaDoc): Promise<MediaDoc> {
  const verdict = await screenPhoto(c.env, () => photoInput(c.env.MEDIA, media));
  if (!verdict) return media;
  const target = { type: 'media' as const, id: media._id };
  if (verdict.outcome === 'unavailable') await deferCheck(c.var.db, c.env, target, verdict.error);
  if (verdict.outcome !== 'flagged') {
    if (verdict.outcome === 'clear') recordModerationCheck(c.env, { target: 'media', outcome: 'clear' });
    return media;
  }
  recordModerationCheck(c.env, { target: 'media', outcome: 'flagged' });
  await holdForReview(c.var.db, target, verdict.categories);
  return { ...media, withheld: { reason: 'review', at: new Date(), categories: verdict.categories } };
}

/** Photos and videos: uploads, parts and reads, mounted under /api/media. */
export const mediaRoutes = createRouter<AppEnv>()
  .openapi(uploadPhoto, async (c) => {
    // A moderation setting missing is refused before anything is stored.
    moderationModel(c.env);
    const sent = await readCapped(c.req.raw.body, LIMITS.media.photoMaxBytes);
    if (sent === 'too-large') throw refusal(MEDIA_REFUSALS, 'photo-too-large');
    const outcome = await storePhoto(c.var.db, c.env.MEDIA, ownerOf(c), sent);
    if (typeof outcome === 'string' || 'outcome' in outcome) throw refusal(MEDIA_REFUSALS, outcome);
    return c.json(mediaView(c, await screenUpload(c, outcome)), 201);
  })
  .openapi(newUpload, async (c) => {
    const outcome = await startUpload(c.var.db, c.env.MEDIA, ownerOf(c), c.req.valid('json'));
    if (outcome === 'too-large') throw refusal(MEDIA_REFUSALS, 'video-too-large');
    if (outcome === 'over-quota') throw refusal(MEDIA_REFUSALS, outcome);
    return c.json(uploadView(outcome), 201);
  })
  .openapi(getUpload, async (c) => {
    const upload = await findUpload(c.var.db, ownerOf(c), new ObjectId(c.req.valid('param').uploadId));
    if (!upload) throw refusal(MEDIA_REFUSALS, 'upload-not-found');
    return c.json(uploadView(upload), 200);
  })
  .openapi(sendPart, async (c) => {
    const { uploadId, n } = c.req.valid('param');
    const upload = await findUpload(c.var.db, ownerOf(c), new ObjectId(uploadId));
    if (!upload) {
      const done = await findOwnMedia(c.var.db, ownerOf(c), new ObjectId(uploadId));
      throw refusal(MEDIA_REFUSALS, done ? 'upload-completed' : 'upload-not-found');
    }
    const expected = partSize(upload, n);
    if (expected === undefined) throw refusal(MEDIA_REFUSALS, { outcome: 'no-such-part', n, count: partCount(upload) });
    const sent = await readCapped(c.req.raw.body, expected);
    if (sent === 'too-large') throw refusal(MEDIA_REFUSALS, 'part-too-large');
    if (sent.length !== expected)
      throw refusal(MEDIA_REFUSALS, { outcome: 'part-size', n, expected, got: sent.length });
    const outcome = await putPart(c.var.db, c.env.MEDIA, upload, n, sent);
    if (outcome === 'gone') throw refusal(MEDIA_REFUSALS, 'upload-not-found');
    if (outcome === 'completing' || outcome === 'completed') throw refusal(MEDIA_REFUSALS, `upload-${outcome}`);
    if ('outcome' in outcome) throw refusal(MEDIA_REFUSALS, outcome);
    return c.json(uploadView(outcome), 200);
  })
  .openapi(complete, async (c) => {
    const outcome = await completeUpload(
      c.var.db,
      c.env.MEDIA,
      ownerOf(c),
      new ObjectId(c.req.valid('param').uploadId),
    );
    if (outcome === 'not-found') throw refusal(MEDIA_REFUSALS, 'upload-not-found');
    if (outcome === 'completing' || outcome === 'lost') throw refusal(MEDIA_REFUSALS, `upload-${outcome}`);
    if ('outcome' in outcome) throw refusal(MEDIA_REFUSALS, outcome);
    return c.json(mediaView(c, outcome), 200);
  })
  .openapi(serve, async (c) => {
    const readerId = (await optionalCaller(c))?.userId ?? null;
    const found = await findServable(c.var.db, new ObjectId(c.req.valid('param').mediaId), readerId);
    if (!found) throw refusal(MEDIA_REFUSALS, 'not-found');
    const { media, isPublic } = found;
    const headers: Record<string, string> = {
      ETag: media.etag,
      'Cache-Control': isPublic
        ? // Not immutable: a removal must reach caches once max-age runs out.
          `public, max-age=${LIMITS.media.publicMaxAgeSeconds}`
        : 'private, no-store',
      'Accept-Ranges': 'bytes',
      // Bytes a rider sent must never act as a page of this origin, even if a browser renders them as one.
      'Content-Security-Policy': 'sandbox',
      'Content-Disposition': `inline; filename="${servedFileName(media)}"`,
    };
    if (etagMatches(c.req.header('if-none-match'), media.etag)) return c.body(null, 304, headers);
    const ask = parseRange(c.req.header('range'), media.bytes);
    if (ask.kind === 'unsatisfiable') {
      throw new ApiError(416, `The range asked for starts past the end of the file (${media.bytes} bytes).`, {
        headers: { 'Content-Range': `bytes */${media.bytes}` },
      });
    }
    const object = await c.env.MEDIA.get(
      media.key,
      ask.kind === 'part' ? { range: { offset: ask.offset, length: ask.length } } : {},
    );
    if (!object) throw refusal(MEDIA_REFUSALS, 'not-found');
    headers['Content-Type'] = media.type;
    if (ask.kind === 'part') {
      headers['Content-Range'] = `bytes ${ask.offset}-${ask.offset + ask.length - 1}/${media.bytes}`;
      headers['Content-Length'] = String(ask.length);
      return c.body(object.body, 206, headers);
    }
    headers['Content-Length'] = String(media.bytes);
    return c.body(object.body, 200, headers);
  });
