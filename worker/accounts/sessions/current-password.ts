import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { clientAddress } from '../../platform/http/client-address';
import { ApiError } from '../../platform/http/errors';
import { verifyPassword } from '../../platform/tokens/password';
import { underSignInLimit } from '../sign-in/sign-in-limit';

export const WRONG_PASSWORD = 'Current password is incorrect.';

/** Passes only when `given` is the account's current password, under the sign-in limit: 400 when wrong, 429 when limited. */
export async function checkCurrentPassword(
  c: Context<AppEnv>,
  account: { email: string; password: string },
  given: string,
): Promise<void> {
  const address = clientAddress(c.env, c.req.raw);
  const wrong = await underSignInLimit(
    c.env,
    account.email,
    address,
    async () => !(await verifyPassword(given, account.password)),
  );
  if (wrong) throw new ApiError(400, WRONG_PASSWORD);
}
