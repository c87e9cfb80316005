import { MongoClient, ObjectId } from 'mongodb';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseName } from '../../worker/platform/db/database-name';
import { joined, type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// A suspended rider's rooms: suspending closes every connection of theirs, and none connects while it lasts
// (docs/moderation.md, Suspension).

let stack: RealtimeStack;
let mongo: MongoClient;

beforeAll(async () => {
  stack = await startRealtimeStack({ build: inject('workerBuild') });
  mongo = new MongoClient(stack.databaseUri);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
  await mongo?.close();
});

const users = () => mongo.db(databaseName(stack.databaseUri, undefined)).collection('users');

async function admin() {
  const account = await stack.rider('Moderator');
  await users().updateOne({ _id: new ObjectId(account.id) }, { $set: { role: 'admin' } });
  return account;
}

/** Resolves with the server's close reason once it closed the connection. */
const disconnected = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', resolve));

/** The connect_error a namespace connect is refused with. */
const refusedWith = (socket: Socket) =>
  joined(socket).then(
    () => null,
    (error: Error) => error.message,
  );

describe('a suspended rider in the rooms', () => {
  it('loses every connection at suspension, and cannot connect again until it is lifted', async () => {
    const moderator = await admin();
    const rider = await stack.rider('Rider');
    const bystander = await stack.rider('Bystander');
    const feed = await joined(stack.connect('/feed', { auth: { token: rider.token } }));
    const messages = await joined(stack.connect('/messages', { auth: { token: rider.token } }));
    const others = await joined(stack.connect('/feed', { auth: { token: bystander.token } }));
    const closed = [feed, messages].map(disconnected);

    const suspended = await stack.api(`/admin/users/${rider.id}/suspension`, {
      method: 'PUT',
      token: moderator.token,
      body: { reason: 'Harassment', until: null },
    });
    expect(suspended.status).toBe(200);
    await Promise.all(closed);
    expect(others.connected).toBe(true);

    expect(await refusedWith(stack.connect('/messages', { auth: { token: rider.token } }))).toBe('Account suspended.');

    const lifted = await stack.api(`/admin/users/${rider.id}/suspension`, {
      method: 'DELETE',
      token: moderator.token,
      body: { reason: 'Appeal accepted' },
    });
    expect(lifted.status).toBe(200);
    expect(await refusedWith(stack.connect('/messages', { auth: { token: rider.token } }))).toBeNull();
  });

  it('connects again once the suspension ended, with no write', async () => {
    const rider = await stack.rider('Rider');
    const suspension = (until: Date) => ({ until, reason: 'Spam', by: new ObjectId(), at: new Date() });
    await users().updateOne(
      { _id: new ObjectId(rider.id) },
      { $set: { suspension: suspension(new Date(Date.now() + 60_000)) } },
    );
    expect(await refusedWith(stack.connect('/feed', { auth: { token: rider.token } }))).toBe('Account suspended.');
    await users().updateOne(
      { _id: new ObjectId(rider.id) },
      { $set: { suspension: suspension(new Date(Date.now() - 1)) } },
    );
    expect(await refusedWith(stack.connect('/feed', { auth: { token: rider.token } }))).toBeNull();
  });
});
