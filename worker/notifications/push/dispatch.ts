import { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { describeError, logEvent } from '../../platform/ops/log-line';
import type { NotificationDeliveryLogDoc, PushCategory, PushTokenDoc } from '../documents';
import { markTokensDead } from '../push-tokens/service';
import { type ExpoMessage, type ExpoTicket, sendChunk } from './expo-client';
import { type Notification, readableNotification } from './notification';
import { sendWebPushes, type WebSendResult } from './web-push';

export type { Notification } from './notification';

/** One notification to send to these tokens of one user, after the sender's rules let it through. */
export interface Dispatch {
  userId: ObjectId;
  category: PushCategory;
  notification: Notification;
  idempotencyKey?: string;
  tokens: PushTokenDoc[];
}

/** Per token, what the push service answered. */
export interface TokenTicket {
  token: string;
  status: 'ok' | 'error';
  /** Expo's ticket id (gateway tokens). */
  ticketId?: string;
  /** The web push service's HTTP status (webpush tokens). */
  serviceStatus?: number;
  error?: { code: string | null; message: string };
}

/**
 * Expo's message format has no thread or group field, so the iOS thread id and Android group ride in
 * `data` for the app (docs/push.md); priority follows the web push urgency of the interface spec.
 */
function expoMessage(dispatch: Dispatch, token: string): ExpoMessage {
  const { title, body, threadId, channelId, group, badge, data } = dispatch.notification;
  return {
    to: token,
    title,
    body,
    data: { ...data, threadId, ...(group ? { group } : {}) },
    sound: 'default',
    priority: dispatch.category === 'messages' ? 'high' : 'normal',
    ...(channelId ? { channelId } : {}),
    ...(badge !== undefined ? { badge } : {}),
  };
}

async function sendAll(env: Env, messages: ExpoMessage[]): Promise<(ExpoTicket | { failed: string })[]> {
  const chunks: ExpoMessage[][] = [];
  for (let i = 0; i < messages.length; i += LIMITS.push.sendChunk)
    chunks.push(messages.slice(i, i + LIMITS.push.sendChunk));
  const results: (ExpoTicket | { failed: string })[][] = new Array(chunks.length);
  let next = 0;
  // A few chunks in flight at once: a large reminder run stays within one cron invocation.
  const lane = async () => {
    while (next < chunks.length) {
      const index = next++;
      const chunk = chunks[index]!;
      try {
        results[index] = await sendChunk(env, chunk);
      } catch (err) {
        logEvent('push.expo.send.failed', { messages: chunk.length, error: describeError(err) });
        results[index] = chunk.map(() => ({ failed: (err as Error).message }));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIMITS.push.sendConcurrency, chunks.length) }, lane));
  return results.flat();
}

const expoTicket = (token: string, answer: ExpoTicket | { failed: string }): TokenTicket =>
  'failed' in answer
    ? { token, status: 'error', error: { code: null, message: answer.failed } }
    : answer.status === 'ok'
      ? { token, status: 'ok', ticketId: answer.id }
      : { token, status: 'error', error: { code: answer.details?.error ?? null, message: answer.message } };

const webTicket = (token: string, result: WebSendResult): TokenTicket => ({
  token,
  status: result.status,
  ...(result.serviceStatus !== undefined ? { serviceStatus: result.serviceStatus } : {}),
  ...(result.error ? { error: result.error } : {}),
});

/**
 * Sends each dispatch to its tokens: Expo (`gateway`) tokens in chunks, web push subscriptions one request
 * each, both at once. Stores one delivery-log row per message (Expo's ticket id, or the web push service's
 * status, or the error) in a few insertMany writes, and marks dead the tokens already known gone:
 * DeviceNotRegistered tickets, and web push subscriptions answered 404 or 410 (`410-Gone`).
 * Returns, per dispatch and in token order, the ticket of each token.
 */
export async function dispatchAll(store: Store, env: Env, requested: Dispatch[], now: Date): Promise<TokenTicket[][]> {
  const dispatches = requested.map((dispatch) => ({
    ...dispatch,
    notification: readableNotification(dispatch.notification),
  }));
  const addressed = dispatches.flatMap((dispatch, index) => dispatch.tokens.map((token) => ({ index, token })));
  if (!addressed.length) return dispatches.map(() => []);
  const expo = addressed.filter(({ token }) => token.transport !== 'webpush');
  const web = addressed.filter(({ token }) => token.transport === 'webpush');
  const [expoAnswers, webAnswers] = await Promise.all([
    expo.length
      ? sendAll(
          env,
          expo.map(({ index, token }) => expoMessage(dispatches[index]!, token.token)),
        )
      : [],
    sendWebPushes(
      env,
      web.map(({ index, token }) => ({
        token,
        category: dispatches[index]!.category,
        notification: dispatches[index]!.notification,
      })),
    ),
  ]);
  const answered = new Map<(typeof addressed)[number], { ticket: TokenTicket; web?: WebSendResult }>();
  for (const [i, address] of expo.entries()) {
    answered.set(address, { ticket: expoTicket(address.token.token, expoAnswers[i]!) });
  }
  for (const [i, address] of web.entries()) {
    answered.set(address, { ticket: webTicket(address.token.token, webAnswers[i]!), web: webAnswers[i]! });
  }
  const tickets: TokenTicket[][] = dispatches.map(() => []);
  const rows: NotificationDeliveryLogDoc[] = [];
  const unregistered: string[] = [];
  const gone: string[] = [];
  for (const address of addressed) {
    const { ticket, web: sent } = answered.get(address)!;
    const dispatch = dispatches[address.index]!;
    if (ticket.error?.code === 'DeviceNotRegistered') unregistered.push(ticket.token);
    if (sent?.gone) gone.push(ticket.token);
    tickets[address.index]!.push(ticket);
    const row = {
      userId: dispatch.userId,
      token: ticket.token,
      category: dispatch.category,
      ...(dispatch.idempotencyKey ? { idempotencyKey: dispatch.idempotencyKey } : {}),
      sentAt: now,
      createdAt: now,
      updatedAt: now,
    };
    if (sent?.tries.length) {
      // One row per request to the push service, each with its own answer, so a delivery can be audited.
      for (const each of sent.tries) {
        rows.push({
          _id: new ObjectId(),
          ...row,
          ticketStatus: each.status,
          ...(each.error ? { error: each.error } : {}),
          transport: 'webpush',
          attempt: each.attempt,
          attempts: sent.attempts,
          ...(each.serviceStatus !== undefined ? { serviceStatus: each.serviceStatus } : {}),
        });
      }
      continue;
    }
    rows.push({
      _id: new ObjectId(),
      ...row,
      ticketStatus: ticket.status,
      ...(ticket.ticketId ? { ticketId: ticket.ticketId, receiptStatus: 'pending' as const } : {}),
      ...(ticket.error ? { error: ticket.error } : {}),
      ...(sent ? { transport: 'webpush' as const, attempts: sent.attempts } : {}),
    });
  }
  for (let i = 0; i < rows.length; i += LIMITS.push.logWriteBatch) {
    await store.notificationDeliveryLog.insertMany(rows.slice(i, i + LIMITS.push.logWriteBatch), { ordered: false });
  }
  await markTokensDead(store, unregistered, 'DeviceNotRegistered', now);
  await markTokensDead(store, gone, '410-Gone', now);
  return tickets;
}
