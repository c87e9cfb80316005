import { MongoClient, ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseName } from '../../worker/platform/db/database-name';
import { joined, next, pause, type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';
import type { RecordedExpoRequest } from '../support/stand-ins/expo-push';
import { startStandIns } from '../support/stand-ins/server';

// "Foreground viewing of the same chat shows no banner" (the interface spec, Push notifications), end to end:
// socket.io-client says what it shows, the Worker in workerd decides, the Expo stand-in records the pushes.

let stack: RealtimeStack;
let standIns: Awaited<ReturnType<typeof startStandIns>>;
let expoProject: string;
let mongo: MongoClient;

beforeAll(async () => {
  standIns = await startStandIns();
  expoProject = `${standIns.url}/expo-push/realtime-${crypto.randomUUID().slice(0, 8)}`;
  stack = await startRealtimeStack({ build: inject('workerBuild'), vars: { EXPO_PUSH_URL: expoProject } });
  mongo = new MongoClient(stack.databaseUri);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await mongo?.close();
  await standIns?.close();
});

/** A rider with one Expo device and a /messages connection. */
async function messenger(name: string) {
  const rider = await stack.rider(name);
  const device = `ExponentPushToken[${crypto.randomUUID()}]`;
  const now = new Date();
  await mongo
    .db(databaseName(stack.databaseUri, undefined))
    .collection('pushTokens')
    .insertOne({
      userId: new ObjectId(rider.id),
      token: device,
      platform: 'ios',
      transport: 'gateway',
      lastSeenAt: now,
      createdAt: now,
      updatedAt: now,
      deadAt: null,
      deadReason: null,
    });
  const socket = await joined(stack.connect('/messages', { auth: { token: rider.token } }));
  return { ...rider, device, socket };
}

async function conversation(token: string, others: string[]) {
  const { status, body } = await stack.api('/conversations', { token, body: { participantIds: others } });
  expect(status).toBe(201);
  return body._id as string;
}

async function forgetPushes() {
  await fetch(expoProject, { method: 'PUT', body: '{}' });
}

/** The devices of the next push request the stand-in receives (one request carries all recipients of a message). */
async function nextPushedDevices(): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const requests = (await (await fetch(`${expoProject}/requests`)).json()) as RecordedExpoRequest[];
    const sends = requests.filter((request) => request.kind === 'send');
    if (sends.length) {
      await forgetPushes();
      return sends.flatMap((request) => (request.body as { to: string }[]).map((message) => message.to)).sort();
    }
    await pause(50);
  }
  throw new Error('no push within 5 s');
}

const send = (token: string, id: string, text: string) =>
  stack.api(`/conversations/${id}/messages`, { token, body: { text } });

describe('message pushes and what the recipients view', () => {
  it('skip a recipient with the conversation on screen on any device, and push one viewing another', async () => {
    const [alice, bob, carol] = await Promise.all([messenger('Alice'), messenger('Bob'), messenger('Carol')]);
    const bobTablet = await joined(stack.connect('/messages', { auth: { token: bob.token } }));
    const id = await conversation(alice.token, [bob.id, carol.id]);
    const elsewhere = await conversation(carol.token, [alice.id]);
    expect(await bob.socket.emitWithAck('conversation:viewing', { conversationId: id })).toEqual({ ok: true });
    await carol.socket.emitWithAck('conversation:viewing', { conversationId: elsewhere });
    await forgetPushes();

    const delivered = next(bob.socket, 'message:created');
    expect((await send(alice.token, id, 'you see this live')).status).toBe(201);
    // Bob still gets the message over the socket, and the one push request carries Carol's device alone.
    await delivered;
    expect(await nextPushedDevices()).toEqual([carol.device]);
    expect(bobTablet.connected).toBe(true);

    // Bob leaves the chat screen: the next message is pushed to him too.
    await bob.socket.emitWithAck('conversation:viewing', { conversationId: null });
    await send(alice.token, id, 'and now a banner');
    expect(await nextPushedDevices()).toEqual([bob.device, carol.device].sort());
  });

  it('push a recipient whose connection viewing the conversation closed', async () => {
    const [alice, bob, carol] = await Promise.all([messenger('Alice'), messenger('Bob'), messenger('Carol')]);
    const id = await conversation(alice.token, [bob.id, carol.id]);
    await bob.socket.emitWithAck('conversation:viewing', { conversationId: id });
    await forgetPushes();
    await send(alice.token, id, 'on screen');
    expect(await nextPushedDevices()).toEqual([carol.device]);

    bob.socket.disconnect();
    // The close travels to the shard and on to Bob's directory entry.
    await pause(500);
    await send(alice.token, id, 'gone to the background');
    expect(await nextPushedDevices()).toEqual([bob.device, carol.device].sort());
  });
});
