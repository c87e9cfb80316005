import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type DeliveryRequest, deliver } from '../../../worker/notifications/push/deliver';
import { registerToken } from '../../../worker/notifications/push-tokens/service';
import { SCHEDULES } from '../../../worker/schedules';
import { register } from '../../support/accounts';
import { pushTestbed } from '../../support/expo-push-stand-in';
import { captureLogLines, eventLines, leakedSecrets } from '../../support/log-lines';

const push = pushTestbed('push-receipts', { EXPO_ACCESS_TOKEN: 'expo-test-access-token' });
const RECEIPTS_CRON = SCHEDULES.find((schedule) => schedule.job === 'push receipts')!.cron;

async function sendToNewRider(tokenCount: number) {
  const rider = await register(push.api);
  const userId = new ObjectId(rider._id);
  const tokens = Array.from({ length: tokenCount }, () => `ExponentPushToken[rcp-${crypto.randomUUID()}]`);
  const request: DeliveryRequest = {
    userId,
    category: 'messages',
    notification: { title: 'Sam', body: 'hi', threadId: 't', data: { url: '/conversations/t', category: 'messages' } },
  };
  await push.withStore(async (store) => {
    for (const token of tokens) await registerToken(store, userId, { token, platform: 'ios', transport: 'gateway' });
    await deliver(store, push.api.env, [request]);
  });
  return { userId, tokens };
}

/** Moves this rider's tickets back in time, as if sent `minutes` ago. */
const age = (userId: ObjectId, minutes: number) =>
  push.api.db((db) =>
    db
      .collection('notificationDeliveryLog')
      .updateMany({ userId }, { $set: { sentAt: new Date(Date.now() - minutes * 60_000) } }),
  );
const logOf = (userId: ObjectId) =>
  push.api.db((db) => db.collection('notificationDeliveryLog').find({ userId }).toArray());
const tokenDoc = (token: string) => push.api.db((db) => db.collection('pushTokens').findOne({ token }));

describe('the push receipts cron (*/15)', () => {
  it('marks the token dead on a DeviceNotRegistered receipt and stores other receipt errors on the log row', async () => {
    await push.script({});
    const { userId, tokens } = await sendToNewRider(3);
    const [gone, limited, fine] = tokens as [string, string, string];
    await push.script({ receiptErrors: { [gone]: 'DeviceNotRegistered', [limited]: 'MessageRateExceeded' } });
    await age(userId, 31);
    const lines = await captureLogLines(() => push.runCron(RECEIPTS_CRON));
    expect(await tokenDoc(gone)).toMatchObject({ deadReason: 'DeviceNotRegistered' });
    expect((await tokenDoc(gone))?.deadAt).toBeInstanceOf(Date);
    expect(await tokenDoc(limited)).toMatchObject({ deadAt: null });
    const log = new Map((await logOf(userId)).map((row) => [row.token, row]));
    expect(log.get(gone)).toMatchObject({ receiptStatus: 'error', error: { code: 'DeviceNotRegistered' } });
    expect(log.get(limited)).toMatchObject({ receiptStatus: 'error', error: { code: 'MessageRateExceeded' } });
    expect(log.get(fine)).toMatchObject({ receiptStatus: 'ok' });
    // One line per receipt error, naming its ticket and code; Expo's message, which quotes the token, stays out.
    const logged = eventLines(lines, 'push.receipt.failed').map(({ ticketId, code }) => ({ ticketId, code }));
    expect(logged).toEqual(
      expect.arrayContaining([
        { ticketId: log.get(gone)!.ticketId, code: 'DeviceNotRegistered' },
        { ticketId: log.get(limited)!.ticketId, code: 'MessageRateExceeded' },
      ]),
    );
    expect(logged).toHaveLength(2);
    expect(leakedSecrets(lines, { gone, limited, fine })).toEqual([]);
  });

  it('leaves tickets younger than 30 minutes for a later run', async () => {
    await push.script({});
    const { userId } = await sendToNewRider(1);
    await age(userId, 20);
    await push.runCron(RECEIPTS_CRON);
    expect((await push.requests()).filter((r) => r.kind === 'getReceipts')).toHaveLength(0);
    expect(await logOf(userId)).toMatchObject([{ receiptStatus: 'pending' }]);
  });

  it('never sends to a token once its receipt said DeviceNotRegistered', async () => {
    await push.script({});
    const { userId, tokens } = await sendToNewRider(2);
    await push.script({ receiptErrors: { [tokens[0]!]: 'DeviceNotRegistered' } });
    await age(userId, 45);
    await push.runCron(RECEIPTS_CRON);
    await push.script({});
    await push.withStore((store) =>
      deliver(store, push.api.env, [
        {
          userId,
          category: 'messages',
          notification: { title: 'x', body: 'y', threadId: 't', data: { url: '/', category: 'messages' } },
        },
      ]),
    );
    expect((await push.sent()).map((m) => m.to)).toEqual([tokens[1]]);
  });

  it('asks for receipts in batches of at most 1,000 ids, with the access token as Bearer', async () => {
    await push.script({});
    const { userId } = await sendToNewRider(1);
    const now = new Date(Date.now() - 40 * 60_000);
    // 1,500 more pending tickets of this rider, as earlier runs would have left them.
    await push.api.db((db) =>
      db.collection('notificationDeliveryLog').insertMany(
        Array.from({ length: 1500 }, (_, i) => ({
          userId,
          token: `ExponentPushToken[bulk-${i}]`,
          category: 'messages',
          sentAt: now,
          ticketStatus: 'ok',
          ticketId: `unknown-${crypto.randomUUID()}`,
          receiptStatus: 'pending',
          createdAt: now,
          updatedAt: now,
        })),
      ),
    );
    await age(userId, 40);
    await push.runCron(RECEIPTS_CRON);
    const asked = (await push.requests()).filter((r) => r.kind === 'getReceipts');
    expect(asked.map((r) => (r.body as { ids: string[] }).ids.length).sort((a, b) => b - a)).toEqual([1000, 501]);
    expect(asked.every((r) => r.authorization === 'Bearer expo-test-access-token')).toBe(true);
    // Tickets the stand-in never issued have no receipt: closed as missing, not asked again.
    expect(
      await push.api.db((db) =>
        db.collection('notificationDeliveryLog').countDocuments({ userId, receiptStatus: 'missing' }),
      ),
    ).toBe(1500);
  });
});
