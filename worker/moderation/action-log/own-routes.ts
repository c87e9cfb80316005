import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, jsonResponse } from '../../platform/http/openapi';
import { PageQuery } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { auth } from '../../platform/middleware/auth';
import { readModeratorAction } from './reader';
import { OwnModerationPage } from './schema';
import { listOwnModeration } from './service';
import { ownModerationView } from './views';

const mine = defineRoute({
  method: 'get',
  path: '/me/moderation',
  tags: ['moderation'],
  summary:
    "What moderators decided about the rider's content and account (removals, suspensions, lifts) and why, newest first",
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(OwnModerationPage, 'A page of decisions') },
});

/** A rider's own moderation history, mounted under /api/users. */
export const ownModerationRoutes = createRouter<AppEnv>().openapi(mine, async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await listOwnModeration(c.var.db, new ObjectId(c.var.user._id), { limit, cursor });
  return c.json(
    toReadPage('moderator_actions', rows, limit, (row) => {
      const entry = readModeratorAction(row);
      return entry && ownModerationView(entry);
    }),
    200,
  );
});
