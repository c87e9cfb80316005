import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { readEach } from '../../platform/db/stored-values';
import { IdParam } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { PageQuery, toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { auth } from '../../platform/middleware/auth';
import { publishAfterWrite } from '../../platform/realtime/publish';
import { readReport } from '../stored-moderation';
import { pushRemovalAfterWrite } from './queue/removal-notice';
import { REPORT_REFUSALS } from './refusals';
import { NewReport, OwnReportPage, Report, ReportPage, ReportQuery, Resolution } from './schema';
import { DEFAULT_RESOLUTION_REASONS, fileReport, listOwnReports, listReports, resolveReport } from './service';
import { ownReportView, reportView } from './views';

const TAGS = ['moderation'];

const file = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Report a post, comment or rider to the admins',
  middleware: [auth()] as const,
  request: jsonBody(NewReport),
  responses: {
    201: jsonResponse(Report, 'The new report'),
    200: jsonResponse(Report, 'Your open report on the same target, unchanged'),
    404: errorResponse('No such post, comment or rider'),
  },
});

const mine = defineRoute({
  method: 'get',
  path: '/mine',
  tags: TAGS,
  summary: "The rider's own reports, newest first, each with its state: open, removed or dismissed",
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(OwnReportPage, 'A page of your reports') },
});

const list = defineRoute({
  method: 'get',
  path: '/reports',
  tags: TAGS,
  summary: 'Reports with a status (open by default), newest first',
  middleware: [admin()] as const,
  request: { query: ReportQuery },
  responses: { 200: jsonResponse(ReportPage, 'A page of reports') },
});

const resolve = defineRoute({
  method: 'patch',
  path: '/reports/{id}',
  tags: TAGS,
  summary: 'Resolve a report: remove the reported post or comment (a rider is never deleted here), or dismiss it',
  middleware: [admin()] as const,
  request: { params: IdParam, ...jsonBody(Resolution) },
  responses: {
    200: jsonResponse(Report, 'The resolved report'),
    400: errorResponse('`remove` on a report about a rider: dismiss it, or act on the account'),
    404: errorResponse('No such report'),
    409: errorResponse('The report is resolved already'),
  },
});

/** Riders' reports, mounted under /api/reports. */
export const reportRoutes = createRouter<AppEnv>()
  .openapi(file, async (c) => {
    const { targetId, ...fields } = c.req.valid('json');
    const outcome = await fileReport(c.var.db, new ObjectId(c.var.user._id), {
      ...fields,
      targetId: new ObjectId(targetId),
    });
    if (outcome === 'not-found') throw refusal(REPORT_REFUSALS, `${fields.targetType}-not-found`);
    return c.json(reportView(outcome.report), outcome.created ? 201 : 200);
  })
  .openapi(mine, async (c) => {
    const query = c.req.valid('query');
    const rows = await listOwnReports(c.var.db, new ObjectId(c.var.user._id), query);
    const page = toPage(rows, query.limit, (row) => row);
    return c.json(
      { items: readEach('reports', page.items, readReport).map(ownReportView), nextCursor: page.nextCursor },
      200,
    );
  });

/** The admin desk for reports, mounted under /api/admin. */
export const adminReportRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const query = c.req.valid('query');
    // The cursor moves on the reports as fetched, also past one left out as unreadable.
    const page = toPage(await listReports(c.var.db, query), query.limit, (row) => row);
    return c.json(
      { items: readEach('reports', page.items, readReport).map(reportView), nextCursor: page.nextCursor },
      200,
    );
  })
  .openapi(resolve, async (c) => {
    const decision = c.req.valid('json');
    const outcome = await resolveReport(
      c.var.db,
      new ObjectId(c.req.valid('param').id),
      decision,
      new ObjectId(c.var.user._id),
    );
    if (typeof outcome === 'string') throw refusal(REPORT_REFUSALS, outcome);
    const { report, subjectId } = outcome;
    if (report.action === 'remove' && report.targetType !== 'user') {
      if (report.targetType === 'post') {
        const postId = report.targetId.toHexString();
        publishAfterWrite(c, { namespace: '/feed', name: 'post:removed', payload: { postId } }, () => ({
          everyoneBut: [],
        }));
      }
      if (subjectId)
        pushRemovalAfterWrite(c, {
          authorId: subjectId,
          targetType: report.targetType,
          targetId: report.targetId,
          reason: decision.reason ?? DEFAULT_RESOLUTION_REASONS.remove,
        });
    }
    return c.json(reportView(report), 200);
  });
