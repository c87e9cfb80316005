import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, jsonResponse } from '../../platform/http/openapi';
import { toPage } from '../../platform/http/pagination';
import { admin } from '../../platform/middleware/admin';
import { listRuns } from './run-log';
import { runIngestion } from './runner';
import { IngestionRunPage, IngestionRunQuery, IngestionRunResult } from './schema';
import { ingestionRunView } from './views';

const TAGS = ['events ingestion'];

const list = defineRoute({
  method: 'get',
  path: '/ingestion-runs',
  tags: TAGS,
  summary: 'The event ingestion run log, newest first: one record per source per run',
  middleware: [admin()] as const,
  request: { query: IngestionRunQuery },
  responses: { 200: jsonResponse(IngestionRunPage, 'A page of run records') },
});

const runNow = defineRoute({
  method: 'post',
  path: '/ingestion-runs',
  tags: TAGS,
  summary:
    'Run event ingestion now, as the schedule does; a failed source is a record with status failed, not an error',
  middleware: [admin()] as const,
  responses: { 201: jsonResponse(IngestionRunResult, 'The run records of this run, one per source') },
});

/** The admin desk for event ingestion, mounted under /api/admin. */
export const adminIngestionRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const query = c.req.valid('query');
    return c.json(toPage(await listRuns(c.var.db, query), query.limit, ingestionRunView), 200);
  })
  .openapi(runNow, async (c) => {
    const runs = await runIngestion(c.var.db, c.env, 'admin');
    return c.json({ runs: runs.map(ingestionRunView) }, 201);
  });
