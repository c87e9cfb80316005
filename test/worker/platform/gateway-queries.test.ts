import { env } from 'cloudflare:test';
import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { gatewayQuery, runQueries } from '../../../worker/platform/db/gateway-queries';
import type { Store } from '../../../worker/platform/db/store';
import { callerAccount } from '../../../worker/platform/tokens/service';
import { ownConversationId } from '../../../worker/social/conversations/own';
import { type SendArgs, sendToConversation } from '../../../worker/social/messages/send';
import { register } from '../../support/accounts';
import { createApi, type TestEnv } from '../../support/worker-api';

// Named jobs the gateway object runs where the connection is (worker/platform/db/gateway-queries.ts), against the
// real dev database, in both modes: over the gateway in one call, and here over a client of the request's own.

const api = createApi('gateway_queries');

function storeIn(mode: 'gateway' | 'direct'): { store: Store; release: () => Promise<void> } {
  const testEnv = { ...(env as TestEnv), ...api.env, DB_ACCESS: mode };
  return openRequestConnection(testEnv);
}

async function openConversation(a: { _id: string }, b: { _id: string }) {
  const now = new Date();
  const participantIds = [new ObjectId(a._id), new ObjectId(b._id)];
  const _id = new ObjectId();
  await api.db((db) =>
    db.collection('conversations').insertOne({
      _id,
      participantIds,
      participantKey: participantIds.map((id) => id.toHexString()).join('-'),
      lastActivityAt: now,
      lastMessageId: null,
      readMarkers: [],
      createdAt: now,
      updatedAt: now,
    }),
  );
  return _id;
}

describe('gateway queries', () => {
  it("answer the caller's account and their conversation in one call, as direct mode does", async () => {
    const [ana, ben, cy] = [await register(api, { name: 'Ana' }), await register(api), await register(api)];
    const id = await openConversation(ana, ben);
    const answers = await Promise.all(
      (['gateway', 'direct'] as const).map(async (mode) => {
        const { store, release } = storeIn(mode);
        try {
          return await runQueries(store, [
            callerAccount.with(ana._id),
            ownConversationId.with({ conversationId: id.toHexString(), userId: ana._id }),
            ownConversationId.with({ conversationId: id.toHexString(), userId: cy._id }),
          ]);
        } finally {
          await release();
        }
      }),
    );
    const [[account, own, notCys], direct] = answers as [(typeof answers)[0], (typeof answers)[0]];
    expect([account, own, notCys]).toEqual(direct);
    expect(account?._id).toEqual(new ObjectId(ana._id));
    expect(account?.name).toBe('Ana');
    expect(account).not.toHaveProperty('password');
    expect(own).toBe(id.toHexString());
    expect(notCys).toBeNull();
  });

  /** A send of `text` by the rider into the conversation, as the route makes one. */
  const sendOf = (id: ObjectId, rider: { _id: string }, text: string, messageId = new ObjectId()): SendArgs => ({
    conversationId: id.toHexString(),
    userId: rider._id,
    message: { id: messageId.toHexString(), text, createdAt: new Date(), filtered: false },
  });

  it('answer a block either way, and no conversation for a rider who is not in it, storing nothing', async () => {
    const [ana, ben, cy] = [await register(api), await register(api), await register(api)];
    const id = await openConversation(ana, ben);
    await api.db((db) =>
      db.collection('user_blocks').insertOne({
        _id: new ObjectId(),
        userId: new ObjectId(ben._id),
        blockedUserId: new ObjectId(ana._id),
        createdAt: new Date(),
      }),
    );
    const { store, release } = storeIn('gateway');
    try {
      const [asAna, asCy] = await runQueries(store, [
        sendToConversation.with(sendOf(id, ana, 'across a block')),
        sendToConversation.with(sendOf(id, cy, 'not mine')),
      ]);
      // Only the fields sending needs come back: the id and the participants, as ObjectIds again.
      expect(asAna).toEqual({
        found: {
          conversation: { _id: id, participantIds: [new ObjectId(ana._id), new ObjectId(ben._id)] },
          blocked: true,
        },
        stored: false,
      });
      expect(asCy).toEqual({ found: null, stored: false });
      expect(await api.db((db) => db.collection('dm_messages').countDocuments({ conversationId: id }))).toBe(0);
    } finally {
      await release();
    }
  });

  it('store a message and then its conversation in one call; after a refused insert the conversation is left', async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const id = await openConversation(ana, ben);
    const { store, release } = storeIn('gateway');
    try {
      const first = sendOf(id, ana, 'one call');
      const [sent] = await runQueries(store, [sendToConversation.with(first)]);
      expect(sent.stored).toBe(true);
      const messageId = new ObjectId(first.message.id);
      const stored = await api.db((db) => db.collection('dm_messages').findOne({ _id: messageId }));
      expect(stored).toMatchObject({ conversationId: id, userId: new ObjectId(ana._id), text: 'one call' });
      const later = sendOf(id, ana, 'same id', messageId);
      later.message.createdAt = new Date(Date.now() + 120_000);
      await expect(runQueries(store, [sendToConversation.with(later)])).rejects.toMatchObject({ code: 11000 });
      const conversation = await api.db((db) => db.collection('conversations').findOne({ _id: id }));
      expect(conversation?.lastMessageId).toEqual(messageId);
      expect(conversation?.lastActivityAt).toEqual(first.message.createdAt);
    } finally {
      await release();
    }
  });

  it("fail with the job's error, and name a job the gateway object does not list", async () => {
    const { store, release } = storeIn('gateway');
    try {
      await expect(
        runQueries(store, [ownConversationId.with({ conversationId: 'not-an-id', userId: 'x' })]),
      ).rejects.toThrow(/hex string/);
      const unlisted = gatewayQuery(
        'unlisted',
        true,
        async () => 1,
        (wire) => wire,
      );
      await expect(runQueries(store, [unlisted.with(undefined)])).rejects.toThrow(/no query named unlisted/);
    } finally {
      await release();
    }
  });
});
