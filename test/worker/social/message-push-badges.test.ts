import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { unreadConversationCounts } from '../../../worker/social/conversations/service';
import { register, type TestAccount } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

// The badge of a message push: the recipient's conversations with unread messages (docs/message-pushes.md).

const api = createApi('message-push-badges');

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
  return ((await res.json()) as { _id: string })._id;
}

const read = (reader: TestAccount, conversationId: string, messageId?: string) =>
  api.fetch(`/api/conversations/${conversationId}/read`, {
    method: 'POST',
    headers: { 'x-auth-token': reader.token },
    json: messageId ? { messageId } : {},
  });

async function totalUnreadConversations(rider: TestAccount) {
  const res = await api.fetch('/api/conversations?limit=50', { headers: { 'x-auth-token': rider.token } });
  const page = (await res.json()) as { items: { unreadCount: number }[] };
  return page.items.filter((item) => item.unreadCount > 0).length;
}

describe('unread conversations for a message push badge', () => {
  it('counts, for every rider at once, the conversations with a message after their read marker', async () => {
    const [alice, bob, carol, dave] = await Promise.all([register(api), register(api), register(api), register(api)]);
    const [withAlice, withCarol, group, readOne, ownLast] = [
      await conversation(alice, [bob]),
      await conversation(carol, [bob]),
      await conversation(alice, [bob, carol]),
      await conversation(dave, [bob]),
      await conversation(bob, [carol, dave]),
    ];
    await send(alice, withAlice, 'one');
    await send(alice, withAlice, 'two');
    await send(carol, withCarol, 'hi');
    const groupHello = await send(alice, group, 'group hello');
    await send(alice, group, 'group again');
    await send(dave, readOne, 'first');
    await send(dave, readOne, 'second');
    await read(bob, readOne);
    await read(carol, withCarol);
    await send(carol, ownLast, 'from carol');
    await send(bob, ownLast, 'bob answers last');
    // Carol read the group only up to its first message: still unread.
    await read(carol, group, groupHello);

    const connection = openRequestConnection(api.env);
    try {
      const ids = [alice, bob, carol, dave].map((rider) => new ObjectId(rider._id));
      const counts = await unreadConversationCounts(connection.store, ids);
      // Bob: withAlice, withCarol, group; not readOne (read) nor ownLast (his own message is the newest).
      expect(counts.get(bob._id)).toBe(3);
      expect(counts.get(bob._id)).toBe(await totalUnreadConversations(bob));
      // Carol: group (read part way) and ownLast (Bob wrote after her); not withCarol (read).
      expect(counts.get(carol._id)).toBe(2);
      expect(counts.get(carol._id)).toBe(await totalUnreadConversations(carol));
      // Dave: ownLast.
      expect(counts.get(dave._id)).toBe(1);
      // Alice wrote last everywhere she takes part.
      expect(counts.has(alice._id)).toBe(false);
    } finally {
      await connection.release();
    }
  });
});
