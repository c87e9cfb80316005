import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { deliver } from '../../../worker/notifications/push/deliver';
import { messageNotification } from '../../../worker/social/messages/push-payload';
import { register, type TestAccount } from '../../support/accounts';
import { captureLogLines, eventLines } from '../../support/log-lines';
import {
  adminTestPush,
  type ReceivedPush,
  registerWebSubscription,
  type StandInSubscription,
  subscriptionId,
  webPushTestbed,
} from '../../support/web-push-stand-in';
import { createApi } from '../../support/worker-api';

// Web push from the Worker (docs/web-push.md) to a local push service that checks the VAPID JWT with the
// configured public key and decrypts every payload with http_ece (test/support/stand-ins/web-push.ts).

const web = await webPushTestbed('web-push');
const { api } = web;

type Testbed = Awaited<ReturnType<typeof webPushTestbed>>;

const subscribe = (account: TestAccount, bed: Testbed = web) => registerWebSubscription(bed, account);

async function setPreferences(account: TestAccount, patch: unknown) {
  const res = await api.fetch('/api/users/me/notification-preferences', {
    method: 'PATCH',
    headers: { 'x-auth-token': account.token },
    json: patch,
  });
  expect(res.status).toBe(200);
}

async function conversation(owner: TestAccount, other: TestAccount) {
  const res = await api.fetch('/api/conversations', {
    method: 'POST',
    headers: { 'x-auth-token': owner.token },
    json: { participantIds: [other._id] },
  });
  return ((await res.json()) as { _id: string })._id;
}

async function sendMessage(from: TestAccount, conversationId: string, text: string) {
  const res = await api.fetch(`/api/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'x-auth-token': from.token },
    json: { text },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { _id: string };
}

const reminder = (listId = new ObjectId().toHexString()) => ({
  title: 'Street list',
  body: 'Still on your list: Kickflip. Time for a session?',
  threadId: `reminder-${listId}`,
  channelId: 'reminders' as const,
  data: { url: `/tricklists/${listId}?fromReminder=1`, category: 'reminders' as const, listId },
});

const message = (senderName: string, text: string) =>
  messageNotification({
    conversationId: new ObjectId().toHexString(),
    messageId: new ObjectId().toHexString(),
    senderName,
    text,
    unreadConversations: 1,
  });

const to = (received: ReceivedPush[], subscription: StandInSubscription) =>
  received.filter((push) => push.subscription === subscriptionId(subscription));

const tokenDoc = (endpoint: string) => web.withStore((store) => store.pushTokens.findOne({ token: endpoint }));
const logRows = (endpoint: string) =>
  web.withStore((store) => store.notificationDeliveryLog.find({ token: endpoint }).sort({ _id: 1 }).toArray());

async function deliverReminder(rider: TestAccount) {
  const [outcome] = await web.withStore((store) =>
    deliver(store, api.env, [{ userId: new ObjectId(rider._id), category: 'reminders', notification: reminder() }]),
  );
  return outcome;
}

describe('web push: messages and reminders arrive readable', () => {
  it('pushes a new message encrypted, VAPID-signed, with TTL 60, urgency high and topic msg-<conversation>', async () => {
    await web.script();
    const [alice, bob] = [await register(api, { name: 'Alice' }), await register(api, { name: 'Bob' })];
    const bobs = await subscribe(bob);
    await subscribe(alice);
    const id = await conversation(alice, bob);
    const message = await sendMessage(alice, id, 'session at 5?');
    const received = await web.received();
    // The sender is never pushed: only Bob's subscription received anything.
    expect(received).toHaveLength(1);
    const [push] = to(received, bobs);
    expect(push).toMatchObject({
      status: 201,
      vapidProblem: null,
      headers: { ttl: '60', urgency: 'high', topic: `msg-${id}`, contentEncoding: 'aes128gcm' },
      payload: {
        title: 'Alice',
        body: 'session at 5?',
        badge: 1,
        data: { url: `/messages/${id}`, category: 'messages', threadId: id, messageId: message._id },
      },
    });
    expect(push!.bodyBytes).toBeLessThanOrEqual(4096);
    expect(push!.claims!.sub).toBe('mailto:push@example.com');
    expect(push!.claims!.exp! - Date.now() / 1000).toBeLessThanOrEqual(24 * 60 * 60);
    expect(push!.claims!.aud).toBe(new URL(bobs.endpoint).origin);
    expect(await logRows(bobs.endpoint)).toMatchObject([
      { category: 'messages', ticketStatus: 'ok', transport: 'webpush', serviceStatus: 201, attempts: 1 },
    ]);
  });

  it('pushes a reminder with TTL 86400, urgency normal and no topic', async () => {
    await web.script();
    const rider = await register(api);
    await setPreferences(rider, { quietHours: { start: '00:00', end: '00:00' } });
    const subscription = await subscribe(rider);
    expect(await deliverReminder(rider)).toMatchObject({
      status: 'accepted',
      tickets: [{ token: subscription.endpoint }],
    });
    const [push, ...more] = await web.received();
    expect(more).toEqual([]);
    expect(push).toMatchObject({
      status: 201,
      vapidProblem: null,
      headers: { ttl: '86400', urgency: 'normal', topic: null },
      payload: {
        title: 'Street list',
        body: 'Still on your list: Kickflip. Time for a session?',
        data: { category: 'reminders', url: expect.stringMatching(/^\/tricklists\//), threadId: expect.any(String) },
      },
    });
  });

  it('keeps the app rules: category off and quiet hours (reminders) push nothing to the browser', async () => {
    await web.script();
    const off = await register(api);
    await subscribe(off);
    await setPreferences(off, { reminders: { push: false } });
    expect(await deliverReminder(off)).toEqual({ status: 'skipped', reason: 'category-off' });
    const quiet = await register(api);
    await subscribe(quiet);
    await setPreferences(quiet, { quietHours: { start: '10:00', end: '14:00', timezone: 'UTC' } });
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    const [outcome] = await web.withStore((store) =>
      deliver(
        store,
        api.env,
        [{ userId: new ObjectId(quiet._id), category: 'reminders', notification: reminder() }],
        noon,
      ),
    );
    expect(outcome).toEqual({ status: 'skipped', reason: 'quiet-hours' });
    expect(await web.received()).toEqual([]);
  });
});

describe("web push: the push service's answers", () => {
  it.each([404, 410])('%i marks the subscription dead with 410-Gone', async (status) => {
    const rider = await register(api);
    await setPreferences(rider, { quietHours: { start: '00:00', end: '00:00' } });
    const subscription = await subscribe(rider);
    await web.script({ answers: { [subscriptionId(subscription)]: [status] } });
    expect(await deliverReminder(rider)).toMatchObject({ status: 'failed' });
    expect(await tokenDoc(subscription.endpoint)).toMatchObject({ deadReason: '410-Gone', deadAt: expect.any(Date) });
    expect(await logRows(subscription.endpoint)).toMatchObject([
      { ticketStatus: 'error', serviceStatus: status, error: { code: '410-Gone' } },
    ]);
    // A dead subscription is not addressed again.
    expect(await deliverReminder(rider)).toEqual({ status: 'skipped', reason: 'no-live-tokens' });
    expect(await web.received()).toHaveLength(1);
  });

  it('429 with Retry-After, then success: delivered once', async () => {
    const rider = await register(api);
    await setPreferences(rider, { quietHours: { start: '00:00', end: '00:00' } });
    const subscription = await subscribe(rider);
    await web.script({ answers: { [subscriptionId(subscription)]: [429] }, retryAfter: '0' });
    expect(await deliverReminder(rider)).toMatchObject({ status: 'accepted' });
    const received = await web.received();
    expect(received.map((push) => push.status)).toEqual([429, 201]);
    expect(received.filter((push) => push.status === 201)).toHaveLength(1);
    // One row per request, each with its own answer: the audit trail of the delivery.
    expect(await logRows(subscription.endpoint)).toMatchObject([
      { attempt: 1, ticketStatus: 'error', serviceStatus: 429, error: { code: '429' } },
      { attempt: 2, ticketStatus: 'ok', serviceStatus: 201, attempts: 2 },
    ]);
    expect((await logRows(subscription.endpoint))[1]).not.toHaveProperty('error');
    expect(await tokenDoc(subscription.endpoint)).toMatchObject({ deadAt: null });
  });

  it('503 every time: gives up after the bounded attempts and logs the status', async () => {
    const rider = await register(api);
    await setPreferences(rider, { quietHours: { start: '00:00', end: '00:00' } });
    const subscription = await subscribe(rider);
    await web.script({ answers: { [subscriptionId(subscription)]: [503, 503, 503, 503, 503] }, retryAfter: '0' });
    expect(await deliverReminder(rider)).toMatchObject({ status: 'failed' });
    expect(await web.received()).toHaveLength(4);
    expect(await logRows(subscription.endpoint)).toMatchObject(
      [1, 2, 3, 4].map((attempt) => ({
        attempt,
        ticketStatus: 'error',
        serviceStatus: 503,
        attempts: 4,
        error: { code: '503' },
      })),
    );
  });

  it('413: an over-long message is sent again with its preview halved, not dropped', async () => {
    await web.script();
    const [alice, bob] = [await register(api, { name: 'Alice' }), await register(api, { name: 'Bob' })];
    const bobs = await subscribe(bob);
    const id = await conversation(alice, bob);
    const long = 'a long message about the session at the plaza tomorrow with everyone from the crew and more words';
    await sendMessage(alice, id, long);
    const [full] = to(await web.received(), bobs);
    // Now the service takes one byte less than that push needed.
    await web.script({ maxBodyBytes: full!.bodyBytes - 1 });
    await sendMessage(alice, id, long);
    const [refused, accepted, ...more] = to(await web.received(), bobs);
    expect(more).toEqual([]);
    expect(refused).toMatchObject({ status: 413, payload: { body: (full!.payload as { body: string }).body } });
    const shorter = (accepted!.payload as { body: string }).body;
    expect(accepted!.status).toBe(201);
    expect(shorter.length).toBeLessThan((full!.payload as { body: string }).body.length / 2 + 1);
    expect(shorter.endsWith('…')).toBe(true);
    expect(accepted!.bodyBytes).toBeLessThan(full!.bodyBytes);
  });

  it('403 (a wrong VAPID key) is logged and the admin test push reports it', async () => {
    const other = await webPushTestbed('web-push-other');
    // The service checks against another key than the one the Worker signs with: real services answer 403.
    await web.script({ vapidPublicKey: other.vapid.publicKey });
    const rider = await register(api);
    const subscription = await subscribe(rider);
    const res = await adminTestPush(web, rider, 'messages', 'hello web');
    expect(res.status).toBe(200);
    const answer = await res.json<{
      status: string;
      tickets: { serviceStatus?: number; error?: { message: string } }[];
    }>();
    expect(answer.status).toBe('failed');
    expect(answer.tickets).toMatchObject([{ token: subscription.endpoint, status: 'error', serviceStatus: 403 }]);
    expect(answer.tickets[0]!.error!.message).toContain('VAPID_PUBLIC_KEY');
    expect(await logRows(subscription.endpoint)).toMatchObject([{ serviceStatus: 403, ticketStatus: 'error' }]);
    // Nothing is marked dead for a configuration mistake.
    expect(await tokenDoc(subscription.endpoint)).toMatchObject({ deadAt: null });
  });

  it('the admin test push to a web subscription is accepted and decrypts', async () => {
    await web.script();
    const rider = await register(api);
    const subscription = await subscribe(rider);
    const res = await adminTestPush(web, rider, 'reminders', 'hello web');
    expect(await res.json()).toMatchObject({
      status: 'accepted',
      tickets: [{ token: subscription.endpoint, status: 'ok', serviceStatus: 201 }],
    });
    expect(await web.received()).toMatchObject([
      { status: 201, payload: { title: 'Test notification', body: 'hello web', data: { category: 'reminders' } } },
    ]);
  });
});

describe('web push: keys and endpoints', () => {
  it('a missing VAPID key: web sends are skipped, the app pushes still go, the admin test push says which key', async () => {
    const keyless = await webPushTestbed('web-push-keyless', { VAPID_PRIVATE_KEY: '' });
    await keyless.script();
    const rider = await register(keyless.api);
    const subscription = await subscribe(rider, keyless);
    const device = `ExponentPushToken[${crypto.randomUUID()}]`;
    const app = await keyless.api.fetch('/api/push-tokens', {
      method: 'POST',
      headers: { 'x-auth-token': rider.token },
      json: { token: device, platform: 'ios', transport: 'gateway' },
    });
    expect(app.status).toBe(201);
    await keyless.expo.script({});
    let outcome: unknown;
    const lines = await captureLogLines(async () => {
      [outcome] = await keyless.withStore((store) =>
        deliver(store, keyless.api.env, [
          { userId: new ObjectId(rider._id), category: 'messages', notification: message('Alice', 'hi') },
        ]),
      );
    });
    expect(outcome).toMatchObject({ status: 'accepted', tickets: [{ token: device }] });
    // One line for the run, naming the setting to fix.
    expect(eventLines(lines, 'push.web.vapid-unusable')).toEqual([
      expect.objectContaining({
        level: 'warn',
        problem: expect.stringContaining('VAPID_PRIVATE_KEY'),
        subscriptions: 1,
      }),
    ]);
    expect((await keyless.expo.sent()).map((sent) => sent.to)).toEqual([device]);
    const test = await adminTestPush(keyless, rider, 'messages', 'hello');
    const answer = await test.json<{
      status: string;
      tickets: { token: string; status: string; error?: { code: string; message: string } }[];
    }>();
    const webTicket = answer.tickets.find((ticket) => ticket.token === subscription.endpoint);
    expect(webTicket).toMatchObject({ status: 'error', error: { code: 'vapid-not-configured' } });
    expect(webTicket!.error!.message).toContain('VAPID_PRIVATE_KEY');
    expect(answer.tickets.find((ticket) => ticket.token === device)).toMatchObject({ status: 'ok' });
    expect(await keyless.received()).toEqual([]);
    // The public key route keeps serving.
    const key = await keyless.api.fetch('/api/push/vapid-public-key');
    expect(await key.json()).toEqual({ publicKey: keyless.vapid.publicKey });
  });

  it('a key pair WebCrypto cannot import is named as the configuration mistake, never sent nor retried', async () => {
    // 65 bytes starting 0x04 pass the format check, but the point is not on the P-256 curve.
    const offCurve = Buffer.from([4, ...new Array(64).fill(1)]).toString('base64url');
    const broken = await webPushTestbed('web-push-bad-key', { VAPID_PUBLIC_KEY: offCurve });
    await broken.script();
    const rider = await register(broken.api);
    const subscription = await subscribe(rider, broken);
    const test = await adminTestPush(broken, rider, 'messages', 'hello');
    const answer = await test.json<{ tickets: { token: string; error?: { code: string; message: string } }[] }>();
    const webTicket = answer.tickets.find((ticket) => ticket.token === subscription.endpoint);
    expect(webTicket?.error?.code).toBe('vapid-key-unusable');
    expect(webTicket!.error!.message).toContain('VAPID_PRIVATE_KEY');
    expect(await broken.received()).toEqual([]);
  });

  it('refuses a local http endpoint where WEB_PUSH_LOCAL_ENDPOINTS is not allow (production)', async () => {
    const production = createApi('web-push-production', { WEB_PUSH_LOCAL_ENDPOINTS: '' });
    const rider = await register(production);
    const res = await production.fetch('/api/push-tokens', {
      method: 'POST',
      headers: { 'x-auth-token': rider.token },
      json: { platform: 'web', transport: 'webpush', subscription: await web.subscribe() },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ details: [{ field: 'subscription.endpoint' }] });
  });
});
