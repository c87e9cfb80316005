import type { Context } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError } from '../http/errors';
import { verifyPassword } from '../session/password';
import { beginSignInAttempt, clientIp } from '../sign-in/sign-in-limit';

export const WRONG_PASSWORD = 'Current password is incorrect.';

/**
 * Passes only when `given` is the account's current password. It runs against the sign-in limit, so a route
 * that asks for the password is no way around it: only a wrong password counts as a failure; 400 when wrong,
 * 429 with Retry-After when limited.
 */
export async function checkCurrentPassword(
  c: Context<AppEnv>,
  account: { email: string; password: string },
  given: string,
): Promise<void> {
  const attempt = await beginSignInAttempt(
    c.env,
    account.email,
    clientIp((name) => c.req.header(name)),
  );
  if (!attempt.allowed) {
    const wait = String(attempt.retryAfterSeconds);
    throw new ApiError(429, `Too many failed sign-in attempts. Try again in ${wait} seconds.`, {
      headers: { 'Retry-After': wait },
    });
  }
  let failed = false;
  try {
    failed = !(await verifyPassword(given, account.password));
  } finally {
    await attempt.settle(failed);
  }
  if (failed) throw new ApiError(400, WRONG_PASSWORD);
}
