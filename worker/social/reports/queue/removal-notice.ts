import type { ObjectId } from 'mongodb';
import { type DeliveryOutcome, deliver, type Notification } from '../../../notifications/push/deliver';
import type { Store } from '../../../platform/db/store';
import type { Env } from '../../../platform/env';
import type { DatabaseVariables } from '../../../platform/middleware/database';
import { describeError, logEvent } from '../../../platform/ops/log-line';

/** Where the app shows a rider the moderators' decisions about them (GET /api/users/me/moderation). */
export const MODERATION_DEEP_LINK = '/moderation';

/**
 * The push telling an author their post or comment was removed, with the admin's reason. It rides the `messages`
 * category (a word from the moderators to this rider, not a reminder quiet hours may hold), one thread for all.
 */
export function removalNotification(targetType: 'post' | 'comment', reason: string): Notification {
  return {
    title: targetType === 'post' ? 'Your post was removed' : 'Your comment was removed',
    body: reason,
    threadId: 'moderation',
    channelId: 'messages',
    data: { url: MODERATION_DEEP_LINK, category: 'messages', kind: `${targetType}.removed` },
  };
}

export function pushRemoval(
  store: Store,
  env: Env,
  notice: { authorId: ObjectId; targetType: 'post' | 'comment'; reason: string },
): Promise<DeliveryOutcome[]> {
  return deliver(store, env, [
    {
      userId: notice.authorId,
      category: 'messages',
      notification: removalNotification(notice.targetType, notice.reason),
    },
  ]);
}

type WriteContext = { env: Env; var: Pick<DatabaseVariables, 'db' | 'inBackground'> };

/** Sends the removal's push in the background: the admin does not wait, and a failure is logged, never the decision's. */
export function pushRemovalAfterWrite(
  c: WriteContext,
  notice: { authorId: ObjectId; targetType: 'post' | 'comment'; targetId: ObjectId; reason: string },
) {
  c.var.inBackground(async () => {
    try {
      await pushRemoval(c.var.db, c.env, notice);
    } catch (error) {
      logEvent('push.moderation.failed', {
        targetType: notice.targetType,
        targetId: notice.targetId.toHexString(),
        error: describeError(error),
      });
    }
  });
}
