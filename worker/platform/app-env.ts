import type { Env } from './env';
import type { AccountReaderVariables } from './middleware/account-reader';
import type { SessionVariables } from './middleware/auth';
import type { DatabaseVariables } from './middleware/database';
import type { RequestLogVariables } from './middleware/request-log';

/**
 * The environment every router is typed with: the Worker's bindings and the variables
 * its middleware set (each middleware exports its own, as Hono's `JwtVariables`).
 */
export type AppEnv = {
  Bindings: Env;
  Variables: DatabaseVariables & AccountReaderVariables & SessionVariables & RequestLogVariables;
};
