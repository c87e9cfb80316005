import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import type { PushCategory } from '../documents';
import { liveTokensOf } from '../push-tokens/service';
import { sendableTokens } from './deliver';
import { dispatchAll, type TokenTicket } from './dispatch';
import { fitBody } from './text';
import { webRulesForSending } from './web-push';

export const TEST_TITLE = 'Test notification';

export type TestPushOutcome =
  | { status: 'accepted' | 'failed'; tickets: TokenTicket[] }
  | { status: 'skipped'; reason: 'no-live-tokens'; tickets: [] };

/**
 * An admin's test push to every live token of the user. It bypasses the category preference and quiet
 * hours on purpose: it checks that the user's devices receive pushes at all (docs/push.md).
 */
export async function sendTestPush(
  store: Store,
  env: Env,
  { userId, category, body }: { userId: ObjectId; category: PushCategory; body: string },
): Promise<TestPushOutcome | 'not-found'> {
  const [user, live] = await Promise.all([
    store.users.findOne({ _id: userId }, { projection: { _id: 1 } }),
    liveTokensOf(store, [userId]),
  ]);
  if (!user) return 'not-found';
  // Web subscriptions are addressed even without VAPID settings: their tickets then say which setting is missing.
  const tokens = sendableTokens(live, webRulesForSending(env));
  if (!tokens.length) return { status: 'skipped', reason: 'no-live-tokens', tickets: [] };
  const notification = {
    title: TEST_TITLE,
    body: fitBody(body),
    threadId: 'admin-test',
    channelId: category,
    data: { url: '/settings/notifications', category, test: true },
  };
  const [tickets = []] = await dispatchAll(store, env, [{ userId, category, notification, tokens }], new Date());
  return { status: tickets.some((ticket) => ticket.status === 'ok') ? 'accepted' : 'failed', tickets };
}
