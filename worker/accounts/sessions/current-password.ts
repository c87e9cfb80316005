import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import { verifyPassword } from '../../platform/tokens/password';
import { clientIp, underSignInLimit } from '../sign-in/sign-in-limit';

export const WRONG_PASSWORD = 'Current password is incorrect.';

/** Passes only when `given` is the account's current password, under the sign-in limit: 400 when wrong, 429 when limited. */
export async function checkCurrentPassword(
  c: Context<AppEnv>,
  account: { email: string; password: string },
  given: string,
): Promise<void> {
  const address = clientIp((name) => c.req.header(name));
  const wrong = await underSignInLimit(
    c.env,
    account.email,
    address,
    async () => !(await verifyPassword(given, account.password)),
  );
  if (wrong) throw new ApiError(400, WRONG_PASSWORD);
}
