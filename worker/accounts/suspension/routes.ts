import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import { recordModeratorAction } from '../../moderation/action-log/service';
import type { AccountNotice } from '../../platform/account-notice';
import type { AppEnv } from '../../platform/app-env';
import { IdParam } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { logError } from '../../platform/ops/log-line';
import { SUSPENSION_REFUSALS } from './refusals';
import { LiftAnswer, LiftBody, SuspendBody, SuspensionAnswer } from './schema';
import { liftSuspension, suspendRider } from './service';
import { liftedNotice, suspendedNotice, suspensionAnswer } from './views';

const TAGS = ['admin', 'moderation'];

const putSuspension = defineRoute({
  method: 'put',
  path: '/users/{id}/suspension',
  tags: TAGS,
  summary: 'Suspend a rider, for a time or until lifted (replaces any suspension they have)',
  description:
    'While it lasts every request of the rider but `GET /api/users/me` (which shows it) and `POST /api/auth/logout` is refused with 403 `Account suspended.`, their sockets are closed and cannot connect, and they get a push with the reason. An admin cannot be suspended. Logged as `rider.suspend` in the moderator action log. See docs/moderation.md.',
  middleware: [admin()] as const,
  request: { params: IdParam, ...jsonBody(SuspendBody) },
  responses: {
    200: jsonResponse(SuspensionAnswer, 'The suspension'),
    404: errorResponse('No such account'),
    409: errorResponse('The account is an admin’s, or your own'),
  },
});

const deleteSuspension = defineRoute({
  method: 'delete',
  path: '/users/{id}/suspension',
  tags: TAGS,
  summary: "Lift a rider's suspension",
  description:
    'The rider can use the service again at once and gets a push. Logged as `rider.lift` in the moderator action log. See docs/moderation.md.',
  middleware: [admin()] as const,
  request: { params: IdParam, ...jsonBody(LiftBody) },
  responses: {
    200: jsonResponse(LiftAnswer, 'Lifted'),
    404: errorResponse('No such account'),
    409: errorResponse('The rider is not suspended'),
  },
});

/** What suspending needs from elsewhere, handed in where the app is composed. */
export interface SuspensionRouteDeps {
  /** Sends the rider a push about their account (the notifications domain's sender). */
  notifyRider(c: Context<AppEnv>, notice: AccountNotice): Promise<unknown>;
  /** Closes every socket of the rider (worker/accounts/sessions/end-access.ts). */
  closeSuspendedSockets(c: Context<AppEnv>, userId: ObjectId): Promise<void>;
}

/** The push goes after the decision is stored and stands without it: a failure is logged, never the admin's error. */
async function tellRider(c: Context<AppEnv>, deps: SuspensionRouteDeps, notice: AccountNotice) {
  try {
    await deps.notifyRider(c, notice);
  } catch (error) {
    logError('suspension: push to the rider', error, c.var.requestId);
  }
}

/** Suspending and lifting, for admins. Mounted under /api/admin. */
export const suspensionRoutes = (deps: SuspensionRouteDeps) =>
  createRouter<AppEnv>()
    .openapi(putSuspension, async (c) => {
      const userId = new ObjectId(c.req.valid('param').id);
      const { reason, until } = c.req.valid('json');
      const adminId = c.var.account._id;
      const at = new Date();
      const end = until ? new Date(until) : null;
      if (userId.equals(adminId)) throw refusal(SUSPENSION_REFUSALS, 'self');
      if (end && end.getTime() <= at.getTime()) throw refusal(SUSPENSION_REFUSALS, 'ended');
      const outcome = await suspendRider(c.var.db, userId, { until: end, reason, by: adminId, at });
      if (typeof outcome === 'string') throw refusal(SUSPENSION_REFUSALS, outcome);
      await recordModeratorAction(c.var.db, {
        actorId: adminId,
        action: 'rider.suspend',
        target: { type: 'user', id: userId },
        subjectId: userId,
        reason,
        details: { until: end?.toISOString() ?? null },
      });
      // After the suspension is stored, so a reconnect is refused.
      await deps.closeSuspendedSockets(c, userId);
      await tellRider(c, deps, { userId, ...suspendedNotice(outcome) });
      return c.json(suspensionAnswer(userId, outcome), 200);
    })
    .openapi(deleteSuspension, async (c) => {
      const userId = new ObjectId(c.req.valid('param').id);
      const { reason } = c.req.valid('json');
      const outcome = await liftSuspension(c.var.db, userId);
      if (typeof outcome === 'string') throw refusal(SUSPENSION_REFUSALS, outcome);
      await recordModeratorAction(c.var.db, {
        actorId: c.var.account._id,
        action: 'rider.lift',
        target: { type: 'user', id: userId },
        subjectId: userId,
        reason,
        details: { until: outcome.until?.toISOString() ?? null, suspendedFor: outcome.reason },
      });
      await tellRider(c, deps, { userId, ...liftedNotice() });
      return c.json({ userId: userId.toHexString(), lifted: true as const }, 200);
    });
