import { createMiddleware } from 'hono/factory';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../app-env';
import { ApiError } from '../http/errors';
import { errorResponse, withDocs } from '../http/openapi';
import { LIMITS } from '../limits';
import { hasPremium } from '../users/entitlements';
import { findSubscription } from '../users/service';
import { countOwnedLists } from './service';

/** The Live refusal text (interface spec), matched by clients. */
const UPGRADE_FOR_SPOT_LISTS = 'Upgrade to premium for unlimited spot lists';

/**
 * The subscription check, after `auth()`: a premium-active account passes; any other account
 * may create spot lists only while it owns fewer than the free allowance.
 * Failure: 403 JSON `{error: "Upgrade to premium for unlimited spot lists"}`.
 * @example middleware: [auth(), subscription()] as const
 */
export function subscription() {
  return withDocs(
    createMiddleware<AppEnv>(async (c, next) => {
      const userId = new ObjectId(c.var.user._id);
      if (!hasPremium(await findSubscription(c.var.db, userId))) {
        const owned = await countOwnedLists(c.var.db, userId, LIMITS.freeSpotLists);
        if (owned >= LIMITS.freeSpotLists) throw new ApiError(403, UPGRADE_FOR_SPOT_LISTS);
      }
      await next();
    }),
    { responses: { 403: errorResponse(UPGRADE_FOR_SPOT_LISTS) } },
  );
}
