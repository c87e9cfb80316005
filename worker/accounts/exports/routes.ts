import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { downloadLink } from './handing-over';
import { EXPORT_REFUSALS } from './refusals';
import { DataExport, DataExportList, DownloadLink, ExportParam } from './schema';
import { askForExport, findExport, listExports } from './service';
import { exportView } from './views';

const TAGS = ['accounts'];

const askRoute = defineRoute({
  method: 'post',
  path: '/export',
  tags: TAGS,
  summary: 'Ask for a copy of your data',
  description:
    'Starts building a ZIP of everything the service holds about you, in the background (docs/data-export.md): 202 with the new export. One a UTC day: asking again the same day answers that day’s export, whatever its state, with 200. You get a push when it is ready.',
  middleware: [auth()] as const,
  responses: {
    202: jsonResponse(DataExport, 'Asked: the export is queued'),
    200: jsonResponse(DataExport, 'You asked today already: that export'),
    409: errorResponse("Today's export cannot be read"),
  },
});

const listRoute = defineRoute({
  method: 'get',
  path: '/exports',
  tags: TAGS,
  summary: 'Your data exports, newest first',
  middleware: [auth()] as const,
  responses: { 200: jsonResponse(DataExportList, 'Your exports with their state, size and expiry') },
});

const downloadRoute = defineRoute({
  method: 'get',
  path: '/exports/{exportId}/download',
  tags: TAGS,
  summary: 'A short-lived link to your export’s file',
  description:
    'Answers a link that works without a token for a few minutes (open it in a browser or hand it to a download manager; it serves byte ranges, so a broken download resumes).',
  middleware: [auth()] as const,
  request: { params: ExportParam },
  responses: {
    200: jsonResponse(DownloadLink, 'The link and when it stops working'),
    404: errorResponse('No such export of yours'),
    409: errorResponse('Still being built, or failed'),
    410: errorResponse('Expired: the file was deleted'),
  },
});

/** The signed-in rider's data exports, mounted under /api/users/me. */
export const exportRoutes = createRouter<AppEnv>()
  .openapi(askRoute, async (c) => {
    const asked = await askForExport(c.var.db, c.var.account._id);
    if (asked === 'unreadable') throw refusal(EXPORT_REFUSALS, 'unreadable');
    return asked.created ? c.json(exportView(asked.export), 202) : c.json(exportView(asked.export), 200);
  })
  .openapi(listRoute, async (c) => {
    const now = new Date();
    const exports = await listExports(c.var.db, c.var.account._id);
    return c.json({ exports: exports.map((doc) => exportView(doc, now)) }, 200);
  })
  .openapi(downloadRoute, async (c) => {
    const doc = await findExport(c.var.db, c.var.account._id, new ObjectId(c.req.valid('param').exportId));
    if (!doc) throw refusal(EXPORT_REFUSALS, 'not-found');
    return c.json(await downloadLink(c, doc), 200);
  });
