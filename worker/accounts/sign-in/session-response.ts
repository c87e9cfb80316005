import { requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import { claimsFor, signSessionToken } from '../../platform/tokens/token';
import type { UserDoc } from '../documents';
import { type UserView, userView } from '../users/views';

/**
 * The body of every successful sign-in or registration, built in one place: the token and
 * the account. Routes also put the token in the `x-auth-token` header, as Live clients read it.
 */
export async function sessionBody(env: Env, user: UserDoc): Promise<{ token: string; user: UserView }> {
  const token = await signSessionToken(claimsFor(user), requireSetting(env, 'JWT_SECRET'));
  return { token, user: userView(user) };
}
