import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { requireSetting } from '../config';
import { storedAccount } from '../session/service';
import { verifySessionToken } from '../session/token';

/**
 * Whether the caller of a public blog route is an admin: an `x-auth-token` that verifies and
 * names an account stored as admin (read now, as the admin check does). Any other caller, a
 * bad token included, is the public: the route stays public, so it refuses no token.
 */
export async function callerIsAdmin(c: Context<AppEnv>): Promise<boolean> {
  const token = c.req.header('x-auth-token');
  if (!token) return false;
  const claims = await verifySessionToken(token, requireSetting(c.env, 'JWT_SECRET'));
  if (!claims) return false;
  return (await storedAccount(c.var.db, claims))?.isAdmin ?? false;
}
