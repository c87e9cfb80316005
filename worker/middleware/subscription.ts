import { createMiddleware } from 'hono/factory';
import { ObjectId } from 'mongodb';
import { UPGRADE_FOR_SPOT_LISTS } from '../auth/access-text';
import type { AppEnv } from '../env';
import { ApiError } from '../http/errors';
import { LIMITS } from '../limits';
import { hasPremium } from '../users/entitlements';

/**
 * The subscription check, after `auth()`: a premium-active account passes; any other account
 * may create spot lists only while it owns fewer than the free allowance.
 * Failure: 403 JSON `{error: "Upgrade to premium for unlimited spot lists"}`.
 * @example app.post('/spotlists', auth(), subscription(), handler)
 */
export function subscription() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const userId = new ObjectId(c.var.user._id);
    const user = await c.var.db.users.findOne({ _id: userId }, { projection: { subscription: 1 } });
    if (!hasPremium(user?.subscription)) {
      const owned = await c.var.db.spotlists.countDocuments({ userId }, { limit: LIMITS.freeSpotLists });
      if (owned >= LIMITS.freeSpotLists) throw new ApiError(403, UPGRADE_FOR_SPOT_LISTS);
    }
    await next();
  });
}
