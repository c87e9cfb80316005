import { createMiddleware } from 'hono/factory';
import type { AccountReader } from '../tokens/service';

/** What `accountReader()` sets: how the access checks read the caller's stored account. */
export type AccountReaderVariables = { readAccount: AccountReader };

/**
 * Hands the access checks the accounts domain's reader of a stored account, so the account they put on
 * `c.var.account` is read as every other stored document is; the platform imports no domain, so the app passes it.
 * @example app.use('/api/*', accountReader(readUser))
 */
export function accountReader(read: AccountReader) {
  return createMiddleware<{ Variables: AccountReaderVariables }>(async (c, next) => {
    c.set('readAccount', read);
    await next();
  });
}
