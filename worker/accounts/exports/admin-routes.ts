import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { IdParam } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { logEvent } from '../../platform/ops/log-line';
import { downloadLink } from './handing-over';
import { EXPORT_REFUSALS } from './refusals';
import { DataExport, DataExportList, DownloadLink, RiderExportParam } from './schema';
import { askForExport, findExport, listExports, riderExists } from './service';
import { exportView } from './views';

// Support answering a rider's request by mail: an admin starts the rider's export and takes its file to send.
// Both are logged as event lines (docs/operations.md), and the export remembers who started it.

const TAGS = ['admin'];

const askRoute = defineRoute({
  method: 'post',
  path: '/users/{id}/export',
  tags: TAGS,
  summary: "Start a rider's data export (answering a request by mail)",
  description:
    'As the rider’s own request (docs/data-export.md): 202 with a new export, 200 with the one of this UTC day when there is one already. Logged.',
  middleware: [admin()] as const,
  request: { params: IdParam },
  responses: {
    202: jsonResponse(DataExport, 'Asked: the export is queued'),
    200: jsonResponse(DataExport, "The rider's export of today"),
    404: errorResponse('No such account'),
    409: errorResponse("Today's export cannot be read"),
  },
});

const listRoute = defineRoute({
  method: 'get',
  path: '/users/{id}/exports',
  tags: TAGS,
  summary: "A rider's data exports, newest first",
  middleware: [admin()] as const,
  request: { params: IdParam },
  responses: { 200: jsonResponse(DataExportList, "The rider's exports") },
});

const downloadRoute = defineRoute({
  method: 'get',
  path: '/users/{id}/exports/{exportId}/download',
  tags: TAGS,
  summary: "A short-lived link to a rider's export file",
  description: 'The same link the rider gets. Logged.',
  middleware: [admin()] as const,
  request: { params: RiderExportParam },
  responses: {
    200: jsonResponse(DownloadLink, 'The link and when it stops working'),
    404: errorResponse('No such export of this rider'),
    409: errorResponse('Still being built, or failed'),
    410: errorResponse('Expired: the file was deleted'),
  },
});

/** Admin access to riders' data exports, mounted under /api/admin. */
export const adminExportRoutes = createRouter<AppEnv>()
  .openapi(askRoute, async (c) => {
    const riderId = new ObjectId(c.req.valid('param').id);
    if (!(await riderExists(c.var.db, riderId))) throw refusal(EXPORT_REFUSALS, 'account-not-found');
    const adminId = c.var.account._id;
    const asked = await askForExport(c.var.db, riderId, { requestedBy: adminId });
    if (asked === 'unreadable') throw refusal(EXPORT_REFUSALS, 'unreadable');
    logEvent('accounts.export.started-by-admin', {
      adminId: adminId.toHexString(),
      userId: riderId.toHexString(),
      exportId: asked.export._id.toHexString(),
      created: asked.created,
    });
    return asked.created ? c.json(exportView(asked.export), 202) : c.json(exportView(asked.export), 200);
  })
  .openapi(listRoute, async (c) => {
    const now = new Date();
    const exports = await listExports(c.var.db, new ObjectId(c.req.valid('param').id));
    return c.json({ exports: exports.map((doc) => exportView(doc, now)) }, 200);
  })
  .openapi(downloadRoute, async (c) => {
    const { id, exportId } = c.req.valid('param');
    const doc = await findExport(c.var.db, new ObjectId(id), new ObjectId(exportId));
    if (!doc) throw refusal(EXPORT_REFUSALS, 'not-found');
    const link = await downloadLink(c, doc);
    logEvent('accounts.export.fetched-by-admin', { adminId: c.var.account._id.toHexString(), userId: id, exportId });
    return c.json(link, 200);
  });
