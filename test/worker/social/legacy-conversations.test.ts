import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { unreadConversationCounts } from '../../../worker/social/conversations/service';
import { register, type TestAccount } from '../../support/accounts';
import { call, everyPage } from '../../support/content';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// Conversations and direct messages as older code stored them, written straight through the driver.
const api = createApi('legacy-conversations');

type Stored = Record<string, unknown> & { _id?: ObjectId | string };

async function storeConversation(fields: Stored): Promise<string> {
  const _id = fields._id ?? new ObjectId();
  await api.db((db) => db.collection<Stored>('conversations').insertOne({ ...fields, _id }));
  return typeof _id === 'string' ? _id : _id.toHexString();
}

async function storeMessage(fields: Stored): Promise<string> {
  const _id = new ObjectId();
  await api.db((db) => db.collection<Stored>('dm_messages').insertOne({ ...fields, _id }));
  return _id.toHexString();
}

const inbox = async (rider: TestAccount) => {
  const res = await call(api, 'GET', '/api/conversations', { as: rider });
  expect(res.status).toBe(200);
  return res.json<any>();
};

describe('a conversation older code stored', () => {
  it('belongs to riders whose ids are stored as hex strings, with no markers, key or activity date', async () => {
    const [ana, ben, cy] = [
      await register(api, { name: 'Ana' }),
      await register(api, { name: 'Ben' }),
      await register(api),
    ];
    const conversationId = await storeConversation({
      participantIds: [ana._id, ben._id],
      createdAt: '2018-02-03T04:05:06.000Z',
      __v: 0,
    });
    const messageId = await storeMessage({
      conversationId,
      userId: ben._id,
      text: 'old hello',
      createdAt: '2018-02-03T04:06:00.000Z',
    });
    await api.db((db) =>
      db
        .collection('conversations')
        .updateOne({ _id: new ObjectId(conversationId) }, { $set: { lastMessageId: messageId } }),
    );

    const listed = await inbox(ana);
    expect(listed.items).toEqual([
      expect.objectContaining({
        _id: conversationId,
        createdAt: '2018-02-03T04:05:06.000Z',
        lastMessage: expect.objectContaining({
          _id: messageId,
          text: 'old hello',
          sender: expect.objectContaining({ name: 'Ben' }),
        }),
      }),
    ]);
    expect(listed.items[0].participants.map((p: any) => p.name).sort()).toEqual(['Ana', 'Ben']);

    const messages = await call(api, 'GET', `/api/conversations/${conversationId}/messages`, { as: ana });
    expect(messages.status).toBe(200);
    expect((await messages.json<any>()).items).toEqual([
      expect.objectContaining({
        _id: messageId,
        conversationId,
        text: 'old hello',
        createdAt: '2018-02-03T04:06:00.000Z',
      }),
    ]);

    const sent = await call(api, 'POST', `/api/conversations/${conversationId}/messages`, {
      as: ana,
      json: { text: 'hi back' },
    });
    expect(sent.status).toBe(201);
    const read = await call(api, 'POST', `/api/conversations/${conversationId}/read`, { as: ben, json: {} });
    expect(read.status).toBe(200);
    expect(await read.json<any>()).toMatchObject({ conversationId, unreadCount: 0 });

    for (const path of ['messages', 'read']) {
      const method = path === 'read' ? 'POST' : 'GET';
      const res = await call(api, method, `/api/conversations/${conversationId}/${path}`, {
        as: cy,
        ...(method === 'POST' ? { json: {} } : {}),
      });
      expect(res.status).toBe(404);
    }
  });

  it('is found by its id when the id itself is stored as a hex string', async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const conversationId = await storeConversation({
      _id: new ObjectId().toHexString(),
      participantIds: [new ObjectId(ana._id), new ObjectId(ben._id)],
      lastActivityAt: new Date(),
      lastMessageId: null,
      readMarkers: [{ userId: ana._id, messageId: null, readAt: 'yesterday' }],
    });
    const sent = await call(api, 'POST', `/api/conversations/${conversationId}/messages`, {
      as: ben,
      json: { text: 'yo' },
    });
    expect(sent.status).toBe(201);
    expect((await inbox(ana)).items).toEqual([expect.objectContaining({ _id: conversationId, unreadCount: 1 })]);
    const list = await call(api, 'GET', `/api/conversations/${conversationId}/messages`, { as: ana });
    expect((await list.json<any>()).items.map((m: any) => m.text)).toEqual(['yo']);
    const read = await call(api, 'POST', `/api/conversations/${conversationId}/read`, { as: ana, json: {} });
    expect(await read.json<any>()).toMatchObject({ conversationId, unreadCount: 0 });
  });
});

describe('lists over conversations and messages older code stored', () => {
  it('leaves out a message with no text, with an event line, and pages on past it', async () => {
    const [ana, ben] = [await register(api), await register(api)];
    const conversationId = await storeConversation({
      participantIds: [new ObjectId(ana._id), new ObjectId(ben._id)],
      lastActivityAt: new Date(),
    });
    const id = new ObjectId(conversationId);
    const first = await storeMessage({ conversationId: id, userId: new ObjectId(ana._id), text: 'one' });
    const broken = await storeMessage({ conversationId: id, userId: new ObjectId(ben._id), text: null });
    const gone = await storeMessage({ conversationId: id, userId: new ObjectId(), text: 'from a deleted rider' });
    let pages: any[][] = [];
    const lines = await captureLogLines(async () => {
      pages = await everyPage<any>(api, `/api/conversations/${conversationId}/messages`, 1, ana);
    });
    const messages = pages.flat();
    expect(messages.map((message) => message._id)).toEqual([gone, first]);
    expect(messages[0].sender).toBeNull();
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'dm_messages', id: broken }),
    ]);
  });

  it('pages through dated conversations, then those stored without a usable activity date, leaving out an unreadable one', async () => {
    const rider = await register(api);
    const me = new ObjectId(rider._id);
    const other = new ObjectId();
    const at = (minutes: number) => new Date(Date.UTC(2024, 0, 1, 0, minutes));
    const newest = await storeConversation({ participantIds: [me, other], lastActivityAt: at(3) });
    const unreadable = await storeConversation({ _id: 'legacy-7', participantIds: [me, other], lastActivityAt: at(2) });
    const older = await storeConversation({ participantIds: [rider._id, other], lastActivityAt: at(1) });
    const undatedA = await storeConversation({ participantIds: [me], lastActivityAt: 'last week' });
    const undatedB = await storeConversation({ participantIds: [me] });
    let pages: any[][] = [];
    const lines = await captureLogLines(async () => {
      pages = await everyPage<any>(api, '/api/conversations', 1, rider);
    });
    expect(pages.flat().map((conversation) => conversation._id)).toEqual([newest, older, undatedB, undatedA]);
    expect(eventLines(lines, 'store.document.unreadable')).toEqual([
      expect.objectContaining({ collection: 'conversations', id: unreadable }),
    ]);
  });
});

describe("a message push's badge over conversations older code stored", () => {
  it('counts a conversation whose participant and marker ids are hex strings', async () => {
    const [ana, ben] = [await register(api), await register(api)];
    await storeConversation({
      participantIds: [ana._id, ben._id],
      lastActivityAt: new Date(),
      lastMessageId: new ObjectId(),
      readMarkers: [
        { userId: ana._id, messageId: null, readAt: new Date() },
        { userId: ben._id, messageId: null, readAt: new Date() },
      ],
    });
    const connection = openRequestConnection(api.env);
    try {
      const counts = await unreadConversationCounts(connection.store, [new ObjectId(ana._id), new ObjectId(ben._id)]);
      expect(Object.fromEntries(counts)).toEqual({ [ana._id]: 1, [ben._id]: 1 });
    } finally {
      await connection.release();
    }
  });
});
