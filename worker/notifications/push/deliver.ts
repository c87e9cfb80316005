import type { ObjectId } from 'mongodb';
import { distinctIds } from '../../platform/db/distinct-ids';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import type { PushCategory, PushTokenDoc } from '../documents';
import { deviceTimeZone, withDefaults } from '../preferences/defaults';
import { isQuietAt } from '../preferences/quiet-hours';
import { readStoredPreferences } from '../preferences/service';
import { isExpoPushToken, isSendableWebSubscription } from '../push-tokens/format';
import { liveTokensOf } from '../push-tokens/service';
import type { WebEndpointRules } from '../push-tokens/web-endpoint';
import { type Dispatch, dispatchAll, type Notification } from './dispatch';
import { readVapid } from './vapid';
import { webRulesForSending } from './web-push';

export type { PushCategory } from '../documents';
export type { Notification } from './dispatch';

export interface DeliveryRequest {
  userId: ObjectId;
  category: PushCategory;
  notification: Notification;
  /** Stored on the delivery-log rows (reminders pass theirs). */
  idempotencyKey?: string;
}

export type DeliveryOutcome =
  /** Expo tokens carry their ticket id; a web push accepted (201) has none: the push service's answer is final. */
  | { status: 'accepted'; tickets: { token: string; ticketId?: string }[] }
  | { status: 'skipped'; reason: 'category-off' | 'quiet-hours' | 'no-live-tokens' }
  | { status: 'failed'; error: string };

/** Quiet hours hold back what can wait (reminders, event news); a message from another rider is not held. */
const QUIET_CATEGORIES = new Set<PushCategory>(['reminders', 'events']);

/**
 * The tokens the sender can reach: Expo (`gateway`) tokens of a valid format, and web push subscriptions at a
 * push service (`web`: its rules, null when VAPID or WEB_PUSH_HOSTS is unusable) with valid keys. The native
 * transports are not sent to.
 */
export function sendableTokens(tokens: PushTokenDoc[], web: WebEndpointRules | null) {
  return tokens.filter((token) =>
    token.transport === 'gateway'
      ? isExpoPushToken(token.token)
      : token.transport === 'webpush' && !!web && isSendableWebSubscription(token, web),
  );
}

const groupByUser = (tokens: PushTokenDoc[]) => {
  const byUser = new Map<string, PushTokenDoc[]>();
  for (const token of tokens)
    byUser.set(token.userId.toHexString(), [...(byUser.get(token.userId.toHexString()) ?? []), token]);
  return byUser;
};

/**
 * Applies every sender rule of the interface spec's "Push notifications" part for MANY users in a few
 * round trips: preferences of all users in one query, live tokens of all users in one query, quiet hours
 * for reminders and event news, malformed tokens dropped, chunks of <= 100 to EXPO_PUSH_URL and one request per
 * web push subscription, 429/5xx retried with backoff, insertMany into notificationDeliveryLog in writes of
 * LIMITS.push.logWriteBatch rows. Outcomes in input order.
 */
export async function deliver(
  store: Store,
  env: Env,
  requests: DeliveryRequest[],
  now = new Date(),
): Promise<DeliveryOutcome[]> {
  if (!requests.length) return [];
  const userIds = distinctIds(requests.map((request) => request.userId));
  const [stored, tokens] = await Promise.all([readStoredPreferences(store, userIds), liveTokensOf(store, userIds)]);
  const tokensByUser = groupByUser(tokens);
  const vapid = readVapid(env);
  const web = 'problem' in vapid ? null : webRulesForSending(env);
  const webSkipped = 'problem' in vapid ? tokens.filter((token) => token.transport === 'webpush').length : 0;
  // One line a run, not one a token: the operator's fix is one setting.
  if (webSkipped)
    console.warn(`${(vapid as { problem: string }).problem} ${webSkipped} web push subscriptions skipped.`);
  const outcomes: (DeliveryOutcome | null)[] = [];
  const dispatches: Dispatch[] = [];
  const dispatchOf: number[] = [];
  for (const request of requests) {
    const id = request.userId.toHexString();
    const live = tokensByUser.get(id) ?? [];
    const preferences = withDefaults(stored.get(id), deviceTimeZone(live));
    const skip = !preferences[request.category].push
      ? 'category-off'
      : QUIET_CATEGORIES.has(request.category) && isQuietAt(preferences.quietHours, now)
        ? 'quiet-hours'
        : sendableTokens(live, web).length === 0
          ? 'no-live-tokens'
          : null;
    if (skip) {
      outcomes.push({ status: 'skipped', reason: skip });
      continue;
    }
    outcomes.push(null);
    dispatchOf.push(outcomes.length - 1);
    dispatches.push({ ...request, tokens: sendableTokens(live, web) });
  }
  const tickets = await dispatchAll(store, env, dispatches, now);
  tickets.forEach((perToken, i) => {
    const ok = perToken.flatMap((t) =>
      t.status === 'ok' ? [{ token: t.token, ...(t.ticketId ? { ticketId: t.ticketId } : {}) }] : [],
    );
    outcomes[dispatchOf[i]!] = ok.length
      ? { status: 'accepted', tickets: ok }
      : { status: 'failed', error: perToken[0]?.error?.message ?? 'no ticket' };
  });
  return outcomes as DeliveryOutcome[];
}
