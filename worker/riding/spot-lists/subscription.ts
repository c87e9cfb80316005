import { createMiddleware } from 'hono/factory';
import { ObjectId } from 'mongodb';
import { hasPremium } from '../../billing/entitlements';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { errorResponse, withDocs } from '../../platform/http/openapi';
import { LIMITS } from '../../platform/limits';
import { releaseListSlot, reserveListSlot } from './service';

/** The Live refusal text (interface spec), matched by clients. */
const UPGRADE_FOR_SPOT_LISTS = 'Upgrade to premium for unlimited spot lists';

/** The slot the check reserved; the handler sets `taken` once its list is stored. */
export type SpotListSlotVariables = { spotListSlot: { taken: boolean } };

/**
 * The subscription check, after `auth()`: a premium-active account passes; any other account
 * may create spot lists only while it owns fewer than the free allowance. The check reserves
 * the new list's slot atomically (worker/riding/spot-lists/service.ts), so concurrent creates
 * cannot overshoot; a request that stores no list gives the slot back.
 * Failure: 403 JSON `{error: "Upgrade to premium for unlimited spot lists"}`.
 * @example middleware: [auth(), subscription()] as const
 */
export function subscription() {
  return withDocs(
    createMiddleware<AppEnv & { Variables: SpotListSlotVariables }>(async (c, next) => {
      const userId = new ObjectId(c.var.user._id);
      // Premium as auth() read the account when the request started; a subscription ending mid-request still gets this one list.
      const premium = hasPremium(c.var.account.subscription);
      if (!(await reserveListSlot(c.var.db, userId, premium ? undefined : LIMITS.freeSpotLists))) {
        throw new ApiError(403, UPGRADE_FOR_SPOT_LISTS);
      }
      const slot = { taken: false };
      c.set('spotListSlot', slot);
      await next();
      if (!slot.taken) await releaseListSlot(c.var.db, userId);
    }),
    { responses: { 403: errorResponse(UPGRADE_FOR_SPOT_LISTS) } },
  );
}
