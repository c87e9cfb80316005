import { invalidBodyField, type Refusals } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import type { AttachRefused } from './service';

const MB = 1024 * 1024;
const { photoMaxBytes, photoMaxPixels, videoMaxBytes, dailyBytesPerRider } = LIMITS.media;

type MediaRefused =
  | 'not-found'
  | 'upload-not-found'
  | 'upload-completing'
  | 'upload-completed'
  | 'upload-lost'
  | 'photo-too-large'
  | 'video-too-large'
  | 'part-too-large'
  | 'over-quota'
  | 'video-sent-as-photo'
  | { outcome: 'unsupported'; what: string }
  | { outcome: 'malformed'; reason: string }
  | { outcome: 'too-many-pixels'; width: number; height: number }
  | { outcome: 'no-such-part'; n: number; count: number }
  | { outcome: 'part-size'; n: number; expected: number; got: number }
  | { outcome: 'missing-parts'; missing: number[] };

const megapixels = (pixels: number) => Math.round(pixels / 100_000) / 10;

const SUPPORTED = 'JPEG, PNG or WebP photos, MP4 or QuickTime videos';

/** Uploads and reads of media refused. */
export const MEDIA_REFUSALS: Refusals<MediaRefused> = {
  'not-found': { status: 404, message: 'Media not found.' },
  'upload-not-found': { status: 404, message: 'Upload not found.' },
  'upload-completing': {
    status: 409,
    message: 'This upload is being completed: POST …/complete again in a moment for the media.',
  },
  'upload-completed': {
    status: 409,
    message: 'This upload is already completed: its media has the upload id; start a new upload to send another video.',
  },
  'upload-lost': {
    status: 409,
    message: 'This upload can no longer be completed (the storage no longer holds it): start a new upload.',
  },
  'photo-too-large': { status: 413, message: `A photo may be at most ${photoMaxBytes / MB} MB.` },
  'video-too-large': { status: 413, message: `A video may be at most ${videoMaxBytes / MB} MB.` },
  'part-too-large': { status: 413, message: 'The part is larger than this part must be (see partSize).' },
  'over-quota': {
    status: 413,
    message: `Daily upload quota reached: ${dailyBytesPerRider / MB} MB a day; it starts afresh at 00:00 UTC.`,
  },
  'video-sent-as-photo': {
    status: 415,
    message: 'These bytes are a video: send videos through POST /api/media/uploads (docs/media.md).',
  },
  unsupported: ({ what }) => ({
    status: 415,
    message: `Unsupported media: the bytes are ${what}; accepted are ${SUPPORTED}.`,
  }),
  malformed: ({ reason }) => ({ status: 400, message: `The file is damaged: ${reason}.` }),
  'too-many-pixels': ({ width, height }) => ({
    status: 422,
    message: `The photo is ${width} × ${height} pixels (${megapixels(width * height)} megapixels); a photo may have at most ${megapixels(photoMaxPixels)} megapixels.`,
  }),
  'no-such-part': ({ n, count }) => ({
    status: 400,
    message: 'Invalid path.',
    details: [{ field: 'n', message: `this upload has parts 1 to ${count}, not ${n}` }],
  }),
  'part-size': ({ n, expected, got }) => ({
    status: 400,
    message: `Part ${n} must be exactly ${expected} bytes; it was ${got}.`,
  }),
  'missing-parts': ({ missing }) => ({
    status: 409,
    message: `Parts still missing: ${missing.join(', ')}. Send them, then complete again.`,
  }),
};

/** Media named in a post or a profile that cannot be attached; `field` is where the body names it. */
export const attachRefusals = (field: string): Refusals<AttachRefused> => ({
  // Another rider's media reads exactly as media that does not exist.
  'media-not-found': {
    status: 404,
    message: 'Media not found.',
    details: [{ field, message: 'no such media of yours' }],
  },
  'media-attached': {
    status: 409,
    message: 'That media is already attached to a post or your profile.',
    details: [{ field, message: 'already attached' }],
  },
  'not-a-photo': invalidBodyField(field, 'a profile picture must be a photo'),
  'media-listed-twice': invalidBodyField(field, 'each media item may appear once'),
});
