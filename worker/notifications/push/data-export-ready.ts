import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { liveTokensOf } from '../push-tokens/service';
import { sendableTokens } from './deliver';
import { dispatchAll, type TokenTicket } from './dispatch';
import type { Notification } from './notification';
import { webRulesForSending } from './web-push';

/** The deep link the push opens: the app's data export screen (docs/data-export.md). */
export const DATA_EXPORT_URL = '/settings/data-export';

/** The push telling a rider the copy of their data they asked for can be downloaded. */
export function dataExportReadyNotification(exportId: ObjectId): Notification {
  return {
    title: 'Your data is ready',
    body: `Your copy of your data can be downloaded for ${LIMITS.dataExports.keepDays} days.`,
    threadId: 'data-export',
    channelId: 'messages',
    data: { url: DATA_EXPORT_URL, category: 'messages', exportId: exportId.toHexString() },
  };
}

/**
 * Pushes "your data is ready" to every live device of the rider. It is the answer to the rider's own request, not
 * news: it goes out whatever the category switches and quiet hours say, as an account notice would (docs/push.md).
 */
export async function sendDataExportReady(
  store: Store,
  env: Env,
  riderId: ObjectId,
  exportId: ObjectId,
): Promise<TokenTicket[]> {
  const tokens = sendableTokens(await liveTokensOf(store, [riderId]), webRulesForSending(env));
  if (!tokens.length) return [];
  const notification = dataExportReadyNotification(exportId);
  const [tickets = []] = await dispatchAll(
    store,
    env,
    [{ userId: riderId, category: 'messages', notification, tokens }],
    new Date(),
  );
  return tickets;
}
