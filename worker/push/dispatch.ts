import { ObjectId } from 'mongodb';
import type { NotificationDeliveryLogDoc, PushCategory, PushTokenDoc } from '../db/documents';
import type { Store } from '../db/store';
import type { Env } from '../env';
import { LIMITS } from '../limits';
import { markTokensDead } from '../push-tokens/service';
import { type ExpoMessage, type ExpoTicket, sendChunk } from './expo-client';

/** What the device shows and the app receives (docs/push.md, "What the app receives"). */
export interface Notification {
  /** Already within 30 characters (worker/push/text.ts fitTitle). */
  title: string;
  /** Already one line within 80 characters (fitBody). */
  body: string;
  /** iOS grouping. */
  threadId: string;
  /** Android channel. */
  channelId?: PushCategory;
  /** Android group. */
  group?: string;
  badge?: number;
  data: { url: string; category: PushCategory } & Record<string, string | number | boolean>;
}

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
  ticketId?: string;
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
        console.error(`push send of ${chunk.length} messages failed: ${(err as Error).message}`);
        results[index] = chunk.map(() => ({ failed: (err as Error).message }));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIMITS.push.sendConcurrency, chunks.length) }, lane));
  return results.flat();
}

/**
 * Sends each dispatch to its tokens in chunks, stores one delivery-log row per message (ticket id or
 * error) in one insertMany, and marks dead the tokens whose ticket already says DeviceNotRegistered.
 * Returns, per dispatch and in order, the ticket of each token.
 */
export async function dispatchAll(store: Store, env: Env, dispatches: Dispatch[], now: Date): Promise<TokenTicket[][]> {
  const addressed = dispatches.flatMap((dispatch, index) =>
    dispatch.tokens.map((token) => ({ index, token: token.token })),
  );
  if (!addressed.length) return dispatches.map(() => []);
  const answers = await sendAll(
    env,
    addressed.map(({ index, token }) => expoMessage(dispatches[index]!, token)),
  );
  const tickets: TokenTicket[][] = dispatches.map(() => []);
  const rows: NotificationDeliveryLogDoc[] = [];
  const gone: string[] = [];
  addressed.forEach(({ index, token }, i) => {
    const answer = answers[i]!;
    const dispatch = dispatches[index]!;
    const ticket: TokenTicket =
      'failed' in answer
        ? { token, status: 'error', error: { code: null, message: answer.failed } }
        : answer.status === 'ok'
          ? { token, status: 'ok', ticketId: answer.id }
          : { token, status: 'error', error: { code: answer.details?.error ?? null, message: answer.message } };
    if (ticket.error?.code === 'DeviceNotRegistered') gone.push(token);
    tickets[index]!.push(ticket);
    rows.push({
      _id: new ObjectId(),
      userId: dispatch.userId,
      token,
      category: dispatch.category,
      ...(dispatch.idempotencyKey ? { idempotencyKey: dispatch.idempotencyKey } : {}),
      sentAt: now,
      ticketStatus: ticket.status,
      ...(ticket.ticketId ? { ticketId: ticket.ticketId, receiptStatus: 'pending' as const } : {}),
      ...(ticket.error ? { error: ticket.error } : {}),
      createdAt: now,
      updatedAt: now,
    });
  });
  await Promise.all([
    store.notificationDeliveryLog.insertMany(rows, { ordered: false }),
    markTokensDead(store, gone, 'DeviceNotRegistered', now),
  ]);
  return tickets;
}
