import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { deliver } from '../../../worker/notifications/push/deliver';
import { dispatchAll } from '../../../worker/notifications/push/dispatch';
import { messageNotification } from '../../../worker/social/messages/push-payload';
import { register, type TestAccount } from '../../support/accounts';
import {
  adminTestPush,
  registerWebSubscription,
  type StandInSubscription,
  subscriptionId,
  type WebPushTestbed,
  webPushTestbed,
} from '../../support/web-push-stand-in';

// Web pushes go to the browsers' push services only (docs/web-push.md, Endpoints): a rider's subscription can
// never make the Worker post to an address of its choosing, follow a redirect, or read another server's answer.

const web = await webPushTestbed('web-push-endpoints');
const { api } = web;

const message = () =>
  messageNotification({
    conversationId: new ObjectId().toHexString(),
    messageId: new ObjectId().toHexString(),
    senderName: 'Alice',
    text: 'session at 5?',
    unreadConversations: 1,
  });

async function registerEndpoint(bed: WebPushTestbed, rider: TestAccount, endpoint: string) {
  const { keys } = await bed.subscribe();
  return bed.api.fetch('/api/push-tokens', {
    method: 'POST',
    headers: { 'x-auth-token': rider.token },
    json: { platform: 'web', transport: 'webpush', subscription: { endpoint, keys } },
  });
}

async function deliverMessage(rider: TestAccount) {
  const [outcome] = await web.withStore((store) =>
    deliver(store, api.env, [{ userId: new ObjectId(rider._id), category: 'messages', notification: message() }]),
  );
  return outcome;
}

const logRows = (endpoint: string) =>
  web.withStore((store) => store.notificationDeliveryLog.find({ token: endpoint }).sort({ _id: 1 }).toArray());

/** The stand-in's own address over https, in the forms a rider could write it. */
const standIn = new URL(api.env.STAND_INS_URL);
const forbiddenStored = (subscription: StandInSubscription) => {
  const path = new URL(subscription.endpoint).pathname;
  return [
    `https://127.0.0.1:${standIn.port}${path}`,
    `https://2130706433:${standIn.port}${path}`,
    `https://localhost:${standIn.port}${path}`,
  ];
};

describe('web push endpoints: registration takes push services only', () => {
  it.each([
    'https://169.254.169.254/latest/meta-data/',
    'https://10.1.2.3/push/abc',
    'https://localhost/push/abc',
    'https://[::1]/push/abc',
    'https://2130706433/push/abc',
    'https://0x7f000001/push/abc',
    'https://0177.0.0.1/push/abc',
    'https://127.1/push/abc',
    'http://169.254.169.254/latest/meta-data/',
    'https://internal.example.com/push/abc',
    'https://fcm.googleapis.com.example.com/fcm/send/abc',
    'https://fcm.googleapis.com:8443/fcm/send/abc',
    'https://user:secret@fcm.googleapis.com/fcm/send/abc',
  ])('refuses %s with a 400 naming subscription.endpoint', async (endpoint) => {
    const rider = await register(api);
    const res = await registerEndpoint(web, rider, endpoint);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ details: [{ field: 'subscription.endpoint' }] });
    expect(await web.withStore((store) => store.pushTokens.countDocuments({ token: endpoint }))).toBe(0);
  });

  it('refuses a forbidden endpoint sent as the subscription JSON in `token` too', async () => {
    const rider = await register(api);
    const { keys } = await web.subscribe();
    const res = await api.fetch('/api/push-tokens', {
      method: 'POST',
      headers: { 'x-auth-token': rider.token },
      json: {
        platform: 'web',
        transport: 'webpush',
        token: JSON.stringify({ endpoint: 'https://169.254.169.254/x', keys }),
      },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ details: [{ field: 'subscription.endpoint' }] });
  });

  it.each([
    'https://fcm.googleapis.com/fcm/send/abc:def',
    'https://fcm.googleapis.com/wp/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/abc',
    'https://wns2-par02p.notify.windows.com/w/?token=abc',
    'https://web.push.apple.com/QGuQyavXutnMH8',
  ])('accepts %s (a push service of the default list)', async (endpoint) => {
    const rider = await register(api);
    const res = await registerEndpoint(web, rider, endpoint);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ token: endpoint, endpoint });
  });

  it('WEB_PUSH_HOSTS replaces the list: its hosts are taken, the default ones no longer', async () => {
    const own = await webPushTestbed('web-push-own-hosts', { WEB_PUSH_HOSTS: 'push.example.net, *.push.example.org' });
    const rider = await register(own.api);
    for (const endpoint of ['https://push.example.net/s/1', 'https://eu.push.example.org/s/2'])
      expect((await registerEndpoint(own, rider, endpoint)).status).toBe(201);
    for (const endpoint of ['https://fcm.googleapis.com/fcm/send/abc', 'https://push.example.org/s/3'])
      expect((await registerEndpoint(own, rider, endpoint)).status).toBe(400);
  });
});

describe('web push endpoints: the sender re-checks what is stored', () => {
  it('a stored endpoint off the push services is never posted to, by deliveries or by the admin test push', async () => {
    await web.script();
    const rider = await register(api);
    const subscription = await web.subscribe();
    const now = new Date();
    const endpoints = forbiddenStored(subscription);
    await web.withStore((store) =>
      store.pushTokens.insertMany(
        endpoints.map((endpoint) => ({
          _id: new ObjectId(),
          userId: new ObjectId(rider._id),
          token: endpoint,
          endpoint,
          keys: subscription.keys,
          platform: 'web' as const,
          transport: 'webpush' as const,
          timezone: 'UTC',
          lastSeenAt: now,
          deadAt: null,
          deadReason: null,
          createdAt: now,
          updatedAt: now,
        })),
      ),
    );
    expect(await deliverMessage(rider)).toEqual({ status: 'skipped', reason: 'no-live-tokens' });
    const test = await adminTestPush(web, rider, 'messages', 'hello');
    expect(await test.json()).toMatchObject({ status: 'skipped', reason: 'no-live-tokens', tickets: [] });
    for (const endpoint of endpoints) expect(await logRows(endpoint)).toEqual([]);
    expect(await web.received()).toEqual([]);
  });

  it('the sender itself refuses such an endpoint, whoever hands it the token', async () => {
    await web.script();
    const rider = await register(api);
    const subscription = await web.subscribe();
    const [endpoint] = forbiddenStored(subscription);
    const now = new Date();
    const token = {
      _id: new ObjectId(),
      userId: new ObjectId(rider._id),
      token: endpoint!,
      endpoint: endpoint!,
      keys: subscription.keys,
      platform: 'web' as const,
      transport: 'webpush' as const,
      lastSeenAt: now,
      deadAt: null,
      deadReason: null,
      createdAt: now,
      updatedAt: now,
    };
    const [tickets] = await web.withStore((store) =>
      dispatchAll(
        store,
        api.env,
        [{ userId: token.userId, category: 'messages', notification: message(), tokens: [token] }],
        now,
      ),
    );
    expect(tickets).toMatchObject([{ token: endpoint, status: 'error', error: { code: 'endpoint-not-allowed' } }]);
    expect(await logRows(endpoint!)).toMatchObject([{ ticketStatus: 'error', attempts: 0 }]);
    expect(await web.received()).toEqual([]);
  });

  it('an unusable WEB_PUSH_HOSTS is named: registration answers 500, and web pushes go nowhere', async () => {
    const broken = await webPushTestbed('web-push-bad-hosts', { WEB_PUSH_HOSTS: '10.0.0.1' });
    await broken.script();
    const rider = await register(broken.api);
    const res = await registerEndpoint(broken, rider, 'https://fcm.googleapis.com/fcm/send/abc');
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toContain('WEB_PUSH_HOSTS');
    const test = await adminTestPush(broken, rider, 'messages', 'hello');
    expect(await test.json()).toMatchObject({ status: 'skipped', reason: 'no-live-tokens' });
    expect(await broken.received()).toEqual([]);
  });
});

describe("web push endpoints: the push service's answer", () => {
  it.each([307, 308])('a %i redirect is not followed: the target is never hit, the delivery failed', async (status) => {
    const rider = await register(api);
    const subscription = await registerWebSubscription(web, rider);
    // The redirect points at another live subscription of the stand-in, which would record a push that reached it.
    const target = await web.subscribe();
    await web.script({ answers: { [subscriptionId(subscription)]: [status] }, location: target.endpoint });
    expect(await deliverMessage(rider)).toMatchObject({ status: 'failed' });
    const received = await web.received();
    expect(received.map((push) => [push.subscription, push.status])).toEqual([[subscriptionId(subscription), status]]);
    expect(await logRows(subscription.endpoint)).toMatchObject([
      { ticketStatus: 'error', serviceStatus: status, attempts: 1, error: { code: 'redirect' } },
    ]);
    // A redirect says nothing about the subscription being gone.
    expect(await web.withStore((store) => store.pushTokens.findOne({ token: subscription.endpoint }))).toMatchObject({
      deadAt: null,
    });
  });

  it.each([
    [400, [400]],
    [403, [403]],
    [410, [410]],
    [413, [413, 413]],
    [503, [503, 503, 503, 503]],
    [307, [307]],
  ])("the admin test push reports a %i by status, never the service's body", async (status, answers) => {
    const marker = `MARKER-${crypto.randomUUID()}`;
    const rider = await register(api);
    const subscription = await registerWebSubscription(web, rider);
    await web.script({
      answers: { [subscriptionId(subscription)]: answers },
      retryAfter: '0',
      answerText: `internal detail ${marker}\r\nx-injected: yes`,
      location: `${api.env.STAND_INS_URL}/nowhere`,
    });
    const res = await adminTestPush(web, rider, 'messages', 'hello');
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(marker);
    expect(JSON.parse(text)).toMatchObject({
      status: 'failed',
      tickets: [
        {
          token: subscription.endpoint,
          status: 'error',
          serviceStatus: status,
          error: { message: expect.any(String) },
        },
      ],
    });
    const [row] = await logRows(subscription.endpoint);
    expect(JSON.stringify(row)).not.toContain(marker);
  });
});
