import type { ObjectId } from 'mongodb';
import type { Env } from '../../platform/env';
import type { DatabaseVariables } from '../../platform/middleware/database';
import { endOtherSessions } from './service';
import { accessTtlS } from './settings';
import { closeEndedSockets } from './sockets';

type RequestContext = { env: Env; var: Pick<DatabaseVariables, 'db'> & { requestId?: string } };

/**
 * Ends every session of the account but `keep` as signing each out would: refresh and access tokens refused, their
 * sockets closed (a change of address, docs/sessions.md "What ends what").
 */
export async function endOtherSessionsAccess(c: RequestContext, userId: ObjectId, keep: ObjectId | undefined) {
  const ended = await endOtherSessions(c.var.db, userId, keep, accessTtlS(c.env));
  if (ended) await closeEndedSockets(c, userId, ended);
}

/** Closes every socket of an account just deleted: its tokens are refused from then on, and nothing is sent to it. */
export const closeDeletedAccountSockets = (c: RequestContext, userId: ObjectId) =>
  closeEndedSockets(c, userId, { accountDeleted: true });

/** Closes every socket of a rider just suspended: a reconnect is refused while the suspension lasts. */
export const closeSuspendedSockets = (c: RequestContext, userId: ObjectId) =>
  closeEndedSockets(c, userId, { accountSuspended: true });
