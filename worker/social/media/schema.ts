import { z } from '@hono/zod-openapi';
import { pathId } from '../../platform/http/ids';
import { LIMITS } from '../../platform/limits';
import { PHOTO_TYPES, VIDEO_TYPES } from './sniff';

export const MediaParam = z.object({ mediaId: pathId('mediaId') });
export const UploadParam = z.object({ uploadId: pathId('uploadId') });
export const PartParam = UploadParam.extend({
  n: z.coerce
    .number()
    .int()
    .min(1)
    .openapi({ param: { name: 'n', in: 'path' }, type: 'integer', description: 'the part number, from 1' }),
});

/** Raw file bytes in a request or response body. */
const Binary = z.string().openapi({ format: 'binary' });
export const binaryContent = (types: readonly string[]) =>
  Object.fromEntries(types.map((type) => [type, { schema: Binary }]));

/** A photo's bytes: the type is read from the bytes themselves, so any of these (or octet-stream) will do. */
export const photoBody = {
  body: { content: binaryContent([...PHOTO_TYPES, 'application/octet-stream']), required: true },
};
export const partBody = {
  body: { content: binaryContent(['application/octet-stream', ...VIDEO_TYPES]), required: true },
};

export const Media = z
  .object({
    mediaId: z.string(),
    type: z
      .enum([...PHOTO_TYPES, ...VIDEO_TYPES])
      .describe('read from the file, whatever content-type it was sent with'),
    bytes: z.number().int().describe('as stored: a photo without its metadata'),
    width: z.number().int().optional().describe('as displayed upright; absent when the file does not say'),
    height: z.number().int().optional(),
    durationMs: z.number().int().optional().describe("a video's, from its movie header"),
    url: z.string().describe('GET it; only you can until it is attached to a post or your profile'),
    held: z
      .boolean()
      .optional()
      .describe(
        'true when the moderation model flagged the photo: served to you alone, and a post it is attached to is held for review (docs/moderation.md)',
      ),
  })
  .openapi('Media');

export const NewUpload = z
  .object({
    type: z.enum(VIDEO_TYPES).describe('what you expect it to be; part 1 decides from the bytes'),
    bytes: z.number().int().min(1).describe(`the whole file's size; at most ${LIMITS.media.videoMaxBytes}`),
  })
  .strict();

export const Upload = z
  .object({
    uploadId: z.string(),
    type: z.enum(VIDEO_TYPES),
    bytes: z.number().int(),
    partSize: z.number().int().describe('every part is exactly this many bytes but the last, which holds the rest'),
    partCount: z.number().int(),
    received: z.array(z.object({ n: z.number().int(), bytes: z.number().int() })).describe('parts stored, in order'),
    missing: z.array(z.number().int()).describe('part numbers still to send'),
  })
  .openapi('MediaUpload');
