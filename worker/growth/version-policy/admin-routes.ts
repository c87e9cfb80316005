import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { admin } from '../../platform/middleware/admin';
import { HistoryQuery, PlatformParam, PolicyHistory, PolicyUpdate, VersionPolicy } from './schema';
import { changePolicy, policyHistory } from './service';
import { policyChangeView, policyView } from './views';

const TAGS = ['admin', 'version policy'];

const putPolicy = defineRoute({
  method: 'put',
  path: '/mobile/version-policy/{platform}',
  tags: TAGS,
  summary: "Set a platform's version policy (raises policyRevision; the reason goes to the history)",
  middleware: [admin()] as const,
  request: { params: PlatformParam, ...jsonBody(PolicyUpdate) },
  responses: { 200: jsonResponse(VersionPolicy, 'The policy as stored, with its new revision') },
});

const getHistory = defineRoute({
  method: 'get',
  path: '/mobile/version-policy/{platform}/history',
  tags: TAGS,
  summary: "A platform's policy changes, newest revision first (append-only: nothing changes or removes them)",
  middleware: [admin()] as const,
  request: { params: PlatformParam, query: HistoryQuery },
  responses: { 200: jsonResponse(PolicyHistory, 'A page of changes') },
});

/** Version-policy administration, mounted under /api/admin. */
export const adminVersionPolicyRoutes = createRouter<AppEnv>()
  .openapi(putPolicy, async (c) => {
    const { reason, ...policy } = c.req.valid('json');
    const actorId = new ObjectId(c.var.user._id);
    const stored = await changePolicy(c.var.db, c.req.valid('param').platform, policy, { reason, actorId });
    return c.json(policyView(stored), 200);
  })
  .openapi(getHistory, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    const beforeRevision = cursor ? Number(cursor.slice(1)) : undefined;
    const rows = await policyHistory(c.var.db, c.req.valid('param').platform, { limit, beforeRevision });
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    const nextCursor = rows.length > limit && last ? `r${last.policyRevision}` : null;
    return c.json({ items: items.map(policyChangeView), nextCursor }, 200);
  });
