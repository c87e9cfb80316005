import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { messageNotification } from '../../../worker/social/messages/push-payload';
import { pushNewMessage } from '../../../worker/social/messages/pushes';
import { register, type TestAccount } from '../../support/accounts';
import { pushTestbed, type SentMessage } from '../../support/expo-push-stand-in';

// A new direct message pushes to the other participants (docs/message-pushes.md), through the Worker
// and push-core's sender against the Expo stand-in.

const push = pushTestbed('message-pushes');
const { api } = push;

type Rider = TestAccount & { device: string };

/** Registers an Expo device of the rider through POST /api/push-tokens. */
async function addDevice(account: TestAccount, platform: 'ios' | 'android' = 'ios') {
  const device = `ExponentPushToken[${crypto.randomUUID()}]`;
  const res = await api.fetch('/api/push-tokens', {
    method: 'POST',
    headers: { 'x-auth-token': account.token },
    json: { token: device, platform, transport: 'gateway', timezone: 'Europe/Berlin' },
  });
  expect(res.status).toBe(201);
  return device;
}

/** A rider with one Expo device. */
async function rider(name: string): Promise<Rider> {
  const account = await register(api, { name });
  return { ...account, device: await addDevice(account) };
}

async function setPreferences(account: TestAccount, patch: unknown) {
  const res = await api.fetch('/api/users/me/notification-preferences', {
    method: 'PATCH',
    headers: { 'x-auth-token': account.token },
    json: patch,
  });
  expect(res.status).toBe(200);
}

async function conversation(owner: TestAccount, others: TestAccount[]) {
  const res = await api.fetch('/api/conversations', {
    method: 'POST',
    headers: { 'x-auth-token': owner.token },
    json: { participantIds: others.map((other) => other._id) },
  });
  return ((await res.json()) as { _id: string })._id;
}

async function send(from: TestAccount, conversationId: string, text: string) {
  const res = await api.fetch(`/api/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'x-auth-token': from.token },
    json: { text },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { _id: string };
}

const to = (sent: SentMessage[], ...riders: Rider[]) =>
  sent.filter((message) => riders.some((one) => one.device === message.to));

describe('message pushes', () => {
  it('push the message to the other participant with the payload of the interface spec', async () => {
    await push.script({});
    const [alice, bob] = [await rider('Alice'), await rider('Bob')];
    const id = await conversation(alice, [bob]);
    const message = await send(alice, id, 'session at 5?');
    const [sent, ...more] = await push.sent();
    expect(more).toEqual([]);
    expect(sent).toMatchObject({
      to: bob.device,
      title: 'Alice',
      body: 'session at 5?',
      channelId: 'messages',
      badge: 1,
      data: {
        url: `/messages/${id}`,
        category: 'messages',
        conversationId: id,
        messageId: message._id,
        threadId: id,
        group: id,
      },
    });
  });

  it('leave the words of a message that matched the word filter out of its push', async () => {
    await push.script({});
    const [alice, bob] = [await rider('Alice'), await rider('Bob')];
    const id = await conversation(alice, [bob]);
    await send(alice, id, 'sh1t session');
    const [sent, ...more] = await push.sent();
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ to: bob.device, title: 'Alice', body: 'Sent you a message.' });
  });

  it('never push the sender, on any of their devices, and push every other participant', async () => {
    await push.script({});
    const [alice, bob, carol] = [await rider('Alice'), await rider('Bob'), await rider('Carol')];
    const alicePhone = { ...alice, device: await addDevice(alice, 'android') };
    const id = await conversation(alice, [bob, carol]);
    await send(alice, id, 'group ride?');
    const sent = await push.sent();
    expect(to(sent, alice, alicePhone)).toEqual([]);
    expect(sent.map((message) => message.to).sort()).toEqual([bob.device, carol.device].sort());
  });

  it('skip a recipient whose messages push preference is off, and only them', async () => {
    await push.script({});
    const [alice, bob, carol] = [await rider('Alice'), await rider('Bob'), await rider('Carol')];
    await setPreferences(bob, { messages: { push: false } });
    const id = await conversation(alice, [bob, carol]);
    await send(alice, id, 'anyone?');
    const sent = await push.sent();
    expect(to(sent, bob)).toEqual([]);
    expect(to(sent, carol)).toHaveLength(1);
  });

  it('ignore quiet hours: a message at any hour is pushed', async () => {
    await push.script({});
    const [alice, bob] = [await rider('Alice'), await rider('Bob')];
    // Quiet all day long.
    await setPreferences(bob, { quietHours: { start: '00:00', end: '23:59', timezone: 'UTC' } });
    const id = await conversation(alice, [bob]);
    await send(alice, id, 'late session?');
    expect(to(await push.sent(), bob)).toHaveLength(1);
  });

  it('skip a recipient who blocked the sender after the message was let through', async () => {
    await push.script({});
    const [alice, bob, carol] = [await rider('Alice'), await rider('Bob'), await rider('Carol')];
    const id = await conversation(alice, [bob, carol]);
    const message = await send(alice, id, 'first');
    await push.script({});
    // The route refuses a message across a block (403), so the block lands between the write and its push.
    const blocked = await api.fetch(`/api/users/me/blocks/${alice._id}`, {
      method: 'PUT',
      headers: { 'x-auth-token': bob.token },
    });
    expect(blocked.ok).toBe(true);
    const connection = openRequestConnection(api.env);
    try {
      const stored = await connection.store.dm_messages.findOne({ _id: new ObjectId(message._id) });
      const { recipients } = await pushNewMessage(connection.store, api.env, {
        conversation: {
          _id: new ObjectId(id),
          participantIds: [alice, bob, carol].map((one) => new ObjectId(one._id)),
        },
        message: stored!,
        senderName: 'Alice',
      });
      expect(recipients.map((one) => one.toHexString())).toEqual([carol._id]);
    } finally {
      await connection.release();
    }
    const sent = await push.sent();
    expect(to(sent, bob)).toEqual([]);
    expect(to(sent, carol)).toHaveLength(1);
  });

  it('badge each recipient with their own count of conversations with unread messages', async () => {
    await push.script({});
    const [alice, bob, carol] = [await rider('Alice'), await rider('Bob'), await rider('Carol')];
    const withBob = await conversation(carol, [bob]);
    await send(carol, withBob, 'unread by Bob');
    const group = await conversation(alice, [bob, carol]);
    await push.script({});
    await send(alice, group, 'hello both');
    const sent = await push.sent();
    // Bob: the group and Carol's chat; Carol: the group only (she wrote last in hers).
    expect(to(sent, bob)[0]!.badge).toBe(2);
    expect(to(sent, carol)[0]!.badge).toBe(1);
  });

  it('cut a long sender name to 30 characters and a long message to one line of 80', async () => {
    await push.script({});
    const alice = await rider('Alexandra Konstantinopoulou-Vanderbilt');
    const bob = await rider('Bob');
    const id = await conversation(alice, [bob]);
    const text = `meet at the bowl\nafter ${'really '.repeat(20)}long warmup`;
    await send(alice, id, text);
    const [sent] = await push.sent();
    expect(Array.from(sent!.title).length).toBeLessThanOrEqual(30);
    expect(sent!.title).toBe('Alexandra…');
    expect(Array.from(sent!.body).length).toBeLessThanOrEqual(80);
    expect(sent!.body).not.toMatch(/\n/);
    expect(sent!.body.startsWith('meet at the bowl after really')).toBe(true);
    expect(sent!.body.endsWith('…')).toBe(true);
  });
});

describe('the message push payload', () => {
  it('carries the conversation as thread, group and deep link', () => {
    const conversationId = 'c0ffee0000000000000000aa';
    expect(
      messageNotification({
        conversationId,
        messageId: 'c0ffee0000000000000000bb',
        senderName: 'Alice',
        text: 'hi',
        unreadConversations: 4,
      }),
    ).toEqual({
      title: 'Alice',
      body: 'hi',
      threadId: conversationId,
      channelId: 'messages',
      group: conversationId,
      badge: 4,
      data: {
        url: `/messages/${conversationId}`,
        category: 'messages',
        conversationId,
        messageId: 'c0ffee0000000000000000bb',
      },
    });
  });
});
