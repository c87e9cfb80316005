import { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse } from '../../platform/http/openapi';
import { parseRange } from '../../platform/http/ranges';
import { refusal } from '../../platform/http/refusals';
import { signingKeys } from '../../platform/tokens/keys';
import { linkSigned } from './download-link';
import { exportFileName } from './naming';
import { EXPORT_REFUSALS } from './refusals';
import { FileParam, LinkQuery } from './schema';
import { findExportById } from './service';
import { fileAvailability } from './state';

const ZIP = { 'application/zip': { schema: z.string().openapi({ format: 'binary' }) } };
const FILE_HEADERS = {
  'Content-Disposition': z.string().describe('attachment; filename="rider-data-<day>.zip"'),
  'Cache-Control': z.string().describe('private, no-store'),
  'Accept-Ranges': z.string(),
};

const fileRoute = defineRoute({
  method: 'get',
  path: '/{exportId}/file',
  tags: ['accounts'],
  summary: 'The export’s ZIP file, through a signed link',
  description:
    'Takes no token: the link from `GET /api/users/me/exports/{exportId}/download` proves who may fetch it until it expires. Serves one byte range (206; 416 when unsatisfiable), so a broken download resumes.',
  request: { params: FileParam, query: LinkQuery },
  responses: {
    200: { description: 'The ZIP file', content: ZIP, headers: z.object(FILE_HEADERS) },
    206: {
      description: 'The byte range asked for',
      content: ZIP,
      headers: z.object({ ...FILE_HEADERS, 'Content-Range': z.string().describe('bytes first-last/size') }),
    },
    403: errorResponse('The link is not valid or expired'),
    404: errorResponse('No such export'),
    409: errorResponse('The export has no file (still being built, or failed)'),
    410: errorResponse('Expired: the file was deleted'),
    416: errorResponse(
      'The range asked for starts past the end',
      z.object({ 'Content-Range': z.string().describe('bytes */size') }),
    ),
  },
});

/** The file behind a signed download link, mounted under /api/exports. */
export const exportFileRoutes = createRouter<AppEnv>().openapi(fileRoute, async (c) => {
  const { expires, signature } = c.req.valid('query');
  const doc = await findExportById(c.var.db, new ObjectId(c.req.valid('param').exportId));
  // The signature binds the export to its rider: a link made for one export never opens another's file.
  const signed =
    doc && (await linkSigned(signingKeys(c.env), { exportId: doc._id, riderId: doc.riderId, expires }, signature));
  if (!doc || !signed) throw refusal(EXPORT_REFUSALS, doc ? 'link-invalid' : 'not-found');
  const now = new Date();
  if (expires * 1000 <= now.getTime()) throw refusal(EXPORT_REFUSALS, 'link-expired');
  const availability = fileAvailability(doc, now);
  if (availability !== 'available') throw refusal(EXPORT_REFUSALS, availability);
  const size = doc.bytes ?? 0;
  const ask = parseRange(c.req.header('range'), size);
  if (ask.kind === 'unsatisfiable') {
    throw new ApiError(416, `The range asked for starts past the end of the file (${size} bytes).`, {
      headers: { 'Content-Range': `bytes */${size}` },
    });
  }
  const object = doc.key
    ? await c.env.MEDIA.get(doc.key, ask.kind === 'part' ? { range: { offset: ask.offset, length: ask.length } } : {})
    : null;
  // A ready export whose file is gone is one the cleanup is deleting.
  if (!object) throw refusal(EXPORT_REFUSALS, 'expired');
  const headers: Record<string, string> = {
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${exportFileName(doc.day)}"`,
    'Cache-Control': 'private, no-store',
    'Accept-Ranges': 'bytes',
  };
  if (ask.kind === 'part') {
    headers['Content-Range'] = `bytes ${ask.offset}-${ask.offset + ask.length - 1}/${size}`;
    headers['Content-Length'] = String(ask.length);
    return c.body(object.body, 206, headers);
  }
  headers['Content-Length'] = String(size);
  return c.body(object.body, 200, headers);
});
