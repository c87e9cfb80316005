import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { IdParam } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { PageQuery, toPage } from '../../platform/http/pagination';
import { type Refusals, refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { findUserById, revokeAccountTokens } from '../users/service';
import { userView } from '../users/views';
import { accessToken } from './issue';
import { familyOf, hashToken, successorOf } from './refresh-token';
import { LogoutBody, RefreshBody, RefreshedSession, Revoked, SessionPage } from './schema';
import { liveSessions, revokeAllSessions, revokeSession, rotateSession } from './service';
import { accessTtlS, sessionSettings } from './settings';
import { closeEndedSockets } from './sockets';
import { sessionView } from './views';

const TAGS = ['sessions'];

/** The refresh refusals (docs/sessions.md); a spent token reused after the grace window has just been revoked. */
const REFRESH_REFUSALS: Refusals<'not-recognised' | 'expired' | 'revoked' | 'reused'> = {
  'not-recognised': { status: 401, message: 'Refresh token not recognised.' },
  expired: { status: 401, message: 'Refresh token expired.' },
  revoked: { status: 401, message: 'Refresh token revoked.' },
  reused: { status: 401, message: 'Refresh token revoked.' },
};

const refresh = defineRoute({
  method: 'post',
  path: '/auth/refresh',
  tags: TAGS,
  summary: 'Trade a refresh token for a new access token and a new refresh token (opt-in sessions)',
  description:
    'The presented refresh token is spent. Presenting a spent one again revokes the whole session (RFC 9700), except within the grace window (REFRESH_GRACE_S, default 10 s), which answers the same new refresh token again. See docs/sessions.md.',
  request: { body: { content: { 'application/json': { schema: RefreshBody } }, required: true } },
  responses: {
    200: jsonResponse(RefreshedSession, 'A fresh access token and the successor refresh token'),
    401: errorResponse(`${Object.values(REFRESH_REFUSALS).join(' or ')}`),
  },
});

const logout = defineRoute({
  method: 'post',
  path: '/auth/logout',
  tags: TAGS,
  summary: "Sign out: revoke this token's session, or with {all: true} every session of the account",
  description:
    "This token's session ends: its refresh token and its access tokens are refused from now on and sockets opened with them are closed. With `all`, every token of the account signed so far ends, legacy ones included, and every open socket of the account is closed. A legacy token (no session) revokes nothing unless `all` is given. See docs/sessions.md.",
  middleware: [auth()] as const,
  request: { body: { content: { 'application/json': { schema: LogoutBody } }, required: false } },
  responses: { 200: jsonResponse(Revoked, 'Signed out') },
});

const listSessions = defineRoute({
  method: 'get',
  path: '/users/me/sessions',
  tags: TAGS,
  summary: 'Your live opt-in sessions, newest first',
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(SessionPage, 'Sessions') },
});

const deleteSession = defineRoute({
  method: 'delete',
  path: '/users/me/sessions/{id}',
  tags: TAGS,
  summary: 'Revoke one of your sessions (its refresh token stops working)',
  middleware: [auth()] as const,
  request: { params: IdParam },
  responses: { 200: jsonResponse(Revoked, 'Revoked'), 404: errorResponse('No such live session of yours') },
});

/** Opt-in sessions: refresh, sign-out and the session list. Mounted under /api. */
export const sessionRoutes = createRouter<AppEnv>()
  .openapi(refresh, async (c) => {
    const { refreshToken } = c.req.valid('json');
    const settings = sessionSettings(c.env);
    const familyId = familyOf(refreshToken);
    if (!familyId) throw refusal(REFRESH_REFUSALS, 'not-recognised');
    const successor = await successorOf(refreshToken, settings.refreshSecret);
    const [hash, successorHash] = await Promise.all([hashToken(refreshToken), hashToken(successor)]);
    const outcome = await rotateSession(
      c.var.db,
      { familyId, hash, successorHash },
      { ttlMs: settings.refreshTtlMs, graceMs: settings.graceMs, accessTtlS: settings.accessTtlS },
    );
    if (typeof outcome === 'object' && 'reused' in outcome) {
      await closeEndedSockets(c, outcome.reused.userId, outcome.ended);
      throw refusal(REFRESH_REFUSALS, 'reused');
    }
    if (typeof outcome === 'string') throw refusal(REFRESH_REFUSALS, outcome);
    const user = await findUserById(c.var.db, outcome.session.userId);
    if (!user) throw refusal(REFRESH_REFUSALS, 'not-recognised');
    const access = await accessToken(c.env, user, outcome.session._id.toHexString());
    return c.json({ ...access, refreshToken: successor, user: userView(user) }, 200);
  })
  .openapi(logout, async (c) => {
    const { all } = (c.req.valid('json') as { all?: boolean } | undefined) ?? {};
    const userId = new ObjectId(c.var.user._id);
    const sessionId = c.var.sessionId;
    if (all) {
      // One $inc ends every token signed so far, legacy ones included; the sessions' refresh tokens go too.
      const account = await revokeAccountTokens(c.var.db, userId);
      const revoked = await revokeAllSessions(c.var.db, userId);
      if (account) await closeEndedSockets(c, userId, { belowVersion: account.tokenVersion ?? 0 });
      return c.json({ revoked }, 200);
    }
    if (!sessionId) return c.json({ revoked: 0 }, 200);
    const ended = await revokeSession(c.var.db, userId, new ObjectId(sessionId), accessTtlS(c.env));
    if (ended) await closeEndedSockets(c, userId, ended);
    return c.json({ revoked: ended ? 1 : 0 }, 200);
  })
  .openapi(listSessions, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    const rows = await liveSessions(c.var.db, new ObjectId(c.var.user._id), { limit, cursor });
    return c.json(
      toPage(rows, limit, (row) => sessionView(row, c.var.sessionId)),
      200,
    );
  })
  .openapi(deleteSession, async (c) => {
    const sessionId = new ObjectId(c.req.valid('param').id);
    const userId = new ObjectId(c.var.user._id);
    const ended = await revokeSession(c.var.db, userId, sessionId, accessTtlS(c.env));
    if (!ended) throw new ApiError(404, 'Session not found.');
    await closeEndedSockets(c, userId, ended);
    return c.json({ revoked: 1 }, 200);
  });
