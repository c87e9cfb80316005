import type { ObjectId } from 'mongodb';
import { distinctIds } from '../../platform/db/distinct-ids';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { logEvent } from '../../platform/ops/log-line';
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

/** Whom a push may reach: a skip and its reason, or the sendable tokens to send it to. */
export type Reach =
  | { status: 'skipped'; reason: 'category-off' | 'quiet-hours' | 'no-live-tokens' }
  | { status: 'reachable'; tokens: PushTokenDoc[] };

/**
 * The sender rules of the interface spec's "Push notifications" part that decide before anything is built, for
 * MANY users in two concurrent reads (preferences of all users, live tokens of all users): the category off, quiet
 * hours for reminders and event news, no sendable token. Answers in input order.
 */
export async function reachOf(
  store: Store,
  env: Env,
  targets: { userId: ObjectId; category: PushCategory }[],
  now = new Date(),
  /** The targets' live tokens when the caller read them already (liveTokensOf), so they are not read again. */
  known?: PushTokenDoc[],
): Promise<Reach[]> {
  if (!targets.length) return [];
  const userIds = distinctIds(targets.map((target) => target.userId));
  const [stored, tokens] = await Promise.all([
    readStoredPreferences(store, userIds),
    known ?? liveTokensOf(store, userIds),
  ]);
  const tokensByUser = groupByUser(tokens);
  const vapid = readVapid(env);
  const web = 'problem' in vapid ? null : webRulesForSending(env);
  const webSkipped = 'problem' in vapid ? tokens.filter((token) => token.transport === 'webpush').length : 0;
  // One line a run, not one a token: the operator's fix is one setting.
  if (webSkipped && 'problem' in vapid)
    logEvent('push.web.vapid-unusable', { problem: vapid.problem, subscriptions: webSkipped });
  return targets.map((target) => {
    const live = tokensByUser.get(target.userId.toHexString()) ?? [];
    const preferences = withDefaults(stored.get(target.userId.toHexString()), deviceTimeZone(live));
    // A notice about the rider's own account has no switch: they must learn what happened to it.
    if (target.category !== 'account' && !preferences[target.category].push)
      return { status: 'skipped', reason: 'category-off' };
    if (QUIET_CATEGORIES.has(target.category) && isQuietAt(preferences.quietHours, now))
      return { status: 'skipped', reason: 'quiet-hours' };
    const sendable = sendableTokens(live, web);
    return sendable.length
      ? { status: 'reachable', tokens: sendable }
      : { status: 'skipped', reason: 'no-live-tokens' };
  });
}

/**
 * Sends pushes whose reach was decided (reachOf): chunks of <= 100 to EXPO_PUSH_URL and one request per web push
 * subscription, 429/5xx retried with backoff, insertMany into notificationDeliveryLog in writes of
 * LIMITS.push.logWriteBatch rows. Outcomes in input order.
 */
export async function sendReached(store: Store, env: Env, dispatches: Dispatch[], now = new Date()) {
  const tickets = await dispatchAll(store, env, dispatches, now);
  return tickets.map((perToken): DeliveryOutcome => {
    const ok = perToken.flatMap((t) =>
      t.status === 'ok' ? [{ token: t.token, ...(t.ticketId ? { ticketId: t.ticketId } : {}) }] : [],
    );
    return ok.length
      ? { status: 'accepted', tickets: ok }
      : { status: 'failed', error: perToken[0]?.error?.message ?? 'no ticket' };
  });
}

/** Applies every sender rule of the interface spec's "Push notifications" part (reachOf, then sendReached). Outcomes in input order. */
export async function deliver(
  store: Store,
  env: Env,
  requests: DeliveryRequest[],
  now = new Date(),
): Promise<DeliveryOutcome[]> {
  const reach = await reachOf(store, env, requests, now);
  const dispatches = requests.flatMap((request, i) => {
    const one = reach[i]!;
    return one.status === 'reachable' ? [{ ...request, tokens: one.tokens }] : [];
  });
  const sent = await sendReached(store, env, dispatches, now);
  let next = 0;
  return reach.map((one) => (one.status === 'reachable' ? sent[next++]! : one));
}
