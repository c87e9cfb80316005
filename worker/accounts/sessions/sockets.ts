import type { ObjectId } from 'mongodb';
import type { EndedTokens } from '../../../durable-objects/socket-attachment';
import type { Env } from '../../platform/env';
import { logError } from '../../platform/ops/log-line';
import { closeRiderSockets } from '../../platform/realtime/directory';

/**
 * Closes the rider's open sockets whose tokens just ended. The revocation is stored first and stands either way:
 * a failure here is logged, and a reconnect with an ended token is refused at connect.
 */
export async function closeEndedSockets(
  c: { env: Env; var: { requestId?: string } },
  userId: ObjectId,
  ended: EndedTokens,
): Promise<void> {
  try {
    await closeRiderSockets(c.env, userId.toHexString(), ended);
  } catch (error) {
    logError('sessions: close the sockets of ended tokens', error, c.var.requestId);
  }
}
