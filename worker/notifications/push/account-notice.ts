import type { AccountNotice } from '../../platform/account-notice';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { type DeliveryOutcome, deliver } from './deliver';

/**
 * Sends a notice about the rider's account to their devices through the sender's rules, in the `account` category:
 * no preference turns it off and quiet hours do not hold it (docs/push.md).
 */
export async function sendAccountNotice(store: Store, env: Env, notice: AccountNotice): Promise<DeliveryOutcome> {
  const notification = {
    title: notice.title,
    body: notice.body,
    threadId: 'account',
    data: { ...notice.data, url: notice.url, category: 'account' as const, kind: notice.kind },
  };
  const [outcome] = await deliver(store, env, [{ userId: notice.userId, category: 'account', notification }]);
  return outcome!;
}
