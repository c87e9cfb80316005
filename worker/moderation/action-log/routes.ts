import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, jsonResponse } from '../../platform/http/openapi';
import { toReadPage } from '../../platform/http/read-pages';
import { admin } from '../../platform/middleware/admin';
import { readModeratorAction } from './reader';
import { ModeratorActionPage, ModeratorActionQuery } from './schema';
import { listModeratorActions } from './service';
import { moderatorActionView } from './views';

const list = defineRoute({
  method: 'get',
  path: '/moderation/actions',
  tags: ['moderation', 'admin'],
  summary: 'The moderator action log, newest first: who did what, when and why (append-only)',
  middleware: [admin()] as const,
  request: { query: ModeratorActionQuery },
  responses: { 200: jsonResponse(ModeratorActionPage, 'A page of actions') },
});

/** The moderator action log, mounted under /api/admin. */
export const actionLogRoutes = createRouter<AppEnv>().openapi(list, async (c) => {
  const { limit, cursor, subjectId, action } = c.req.valid('query');
  const rows = await listModeratorActions(c.var.db, {
    limit,
    cursor,
    ...(subjectId ? { subjectId: new ObjectId(subjectId) } : {}),
    ...(action ? { action } : {}),
  });
  return c.json(
    toReadPage('moderator_actions', rows, limit, (row) => {
      const entry = readModeratorAction(row);
      return entry && moderatorActionView(entry);
    }),
    200,
  );
});
