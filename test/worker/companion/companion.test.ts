import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { eventWindow } from '../../../worker/companion/chat/tools/events';
import { describeAccessChecks } from '../../support/access-checks';
import { register, registerAdmin } from '../../support/accounts';
import { chat, SURFACES, sendChat } from '../../support/companion';
import { createSpot } from '../../support/spots';
import { createList } from '../../support/trick-lists';
import { createApi } from '../../support/worker-api';

// No OPENAI_API_KEY in the test environment: these run on the offline companion.
const api = createApi('companion');

describeAccessChecks(api, [
  { method: 'POST', path: '/api/dm', check: 'auth', json: { message: 'hi' } },
  { method: 'POST', path: '/api/bot-chat/message', check: 'auth', json: { message: 'hi' } },
]);

describe.each(SURFACES)('POST $path', ({ path, store }) => {
  it(`stores the message and the reply in ${store} and answers {reply, messageId, stage, spoken, reason}`, async () => {
    const rider = await register(api);
    const body = await chat(api, rider, 'hey there', { path });
    expect(body).toEqual({
      reply: expect.any(String),
      messageId: expect.stringMatching(/^[0-9a-f]{24}$/),
      stage: 'stranger',
      spoken: false,
      reason: 'no-session',
    });
    const rows = await api.db((db) =>
      db
        .collection(store)
        .find({ userId: new ObjectId(rider._id) })
        .sort({ createdAt: 1, _id: 1 })
        .toArray(),
    );
    expect(rows.map((row) => [row.role, row.text])).toEqual([
      ['user', 'hey there'],
      ['assistant', body.reply],
    ]);
    expect(rows[1]!._id.toHexString()).toBe(body.messageId);
  });

  it('refuses an empty or over-long message, naming the field, and stores nothing', async () => {
    const rider = await register(api);
    for (const message of ['   ', 'x'.repeat(2001)]) {
      const res = await sendChat(api, rider, message, { path });
      expect(res.status).toBe(400);
      expect((await res.json<any>()).details[0].field).toBe('message');
    }
    expect(await api.db((db) => db.collection(store).countDocuments({ userId: new ObjectId(rider._id) }))).toBe(0);
  });

  it('refuses control characters in a message but keeps its line breaks and tabs', async () => {
    const rider = await register(api);
    for (const message of ['events in Ber\u0000lin', 'hey\u001b[2J', 'hi\u007f']) {
      const res = await sendChat(api, rider, message, { path });
      expect(res.status, JSON.stringify(message)).toBe(400);
      expect((await res.json<any>()).details).toEqual([
        { field: 'message', message: 'must not contain control characters' },
      ]);
    }
    expect(await api.db((db) => db.collection(store).countDocuments({ userId: new ObjectId(rider._id) }))).toBe(0);
    await chat(api, rider, 'events\tin Berlin?\r\nthanks', { path });
  });
});

describe('the companion DM surface beside conversations', () => {
  it('marks its rows as companion rows with no conversation, so conversation lists never show them', async () => {
    const rider = await register(api);
    await chat(api, rider, 'hello', { path: '/api/dm' });
    const rows = await api.db((db) =>
      db
        .collection('dm_messages')
        .find({ userId: new ObjectId(rider._id) })
        .toArray(),
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.companion).toBe(true);
      expect(row).not.toHaveProperty('conversationId');
    }
    const list = await api.fetch('/api/conversations', { headers: { 'x-auth-token': rider.token } });
    expect((await list.json<any>()).items).toEqual([]);
  });
});

describe('the offline companion calls the tools on plain intents', () => {
  it('"spots near …" finds spots by city', async () => {
    const [rider, admin] = [await register(api), await registerAdmin(api)];
    await createSpot(api, admin, { name: 'Mellowpark', city: 'Berlin' });
    const { reply } = await chat(api, rider, 'any spots near Berlin?');
    expect(reply).toContain('Mellowpark');
  });

  it('"add kickflip to my list" adds it to the rider\'s own newest list, nobody else\'s', async () => {
    const [rider, other] = [await register(api), await register(api)];
    const list = await createList(api, rider, { name: 'Street', sport: 'skateboarding' });
    const otherList = await createList(api, other, { name: 'Street', sport: 'skateboarding' });
    const { reply } = await chat(api, rider, 'add kickflip to my list');
    expect(reply).toBe('Added kickflip to Street. Go get it.');
    const tricks = await api.db((db) => db.collection('tricks').find({ name: 'kickflip' }).toArray());
    expect(tricks.map((trick) => [trick.userId.toHexString(), trick.listId.toHexString()])).toEqual([
      [rider._id, list._id],
    ]);
    expect(await api.db((db) => db.collection('tricks').countDocuments({ listId: new ObjectId(otherList._id) }))).toBe(
      0,
    );
  });

  it('"add … to my list" with no list yet starts one', async () => {
    const rider = await register(api);
    await chat(api, rider, 'add heelflip to my list');
    const lists = await api.db((db) =>
      db
        .collection('tricklists')
        .find({ userId: new ObjectId(rider._id) })
        .toArray(),
    );
    expect(lists.map((list) => list.name)).toEqual(['My tricks']);
  });

  it('"what is a heelflip" reads the trickipedia', async () => {
    const rider = await register(api);
    const now = new Date();
    await api.db((db) =>
      db.collection('trickipedia').insertOne({
        name: 'Heelflip',
        slug: `heelflip-${crypto.randomUUID().slice(0, 6)}`,
        sport: 'skateboarding',
        category: 'flip',
        description: 'A flip trick kicked with the heel. It spins the board along its length.',
        aliases: [],
        createdAt: now,
        updatedAt: now,
      }),
    );
    const { reply } = await chat(api, rider, 'what is a heelflip?');
    expect(reply).toBe('Heelflip: A flip trick kicked with the heel.');
  });

  it('"events this weekend" lists events of the coming weekend only', async () => {
    const rider = await register(api);
    const { from } = eventWindow('this-weekend', new Date());
    const event = (title: string, startAt: Date) => ({
      title,
      slug: `${title}-${crypto.randomUUID()}`,
      dedupeKey: crypto.randomUUID(),
      startAt,
      venue: { city: 'Lisbon' },
    });
    await api.db((db) =>
      db
        .collection('events')
        .insertMany([
          event('Weekend Jam', new Date(from.getTime() + 14 * 3600_000)),
          event('Far Future Cup', new Date(from.getTime() + 40 * 86400_000)),
        ]),
    );
    const { reply } = await chat(api, rider, 'any events this weekend?');
    expect(reply).toContain('Weekend Jam in Lisbon');
    expect(reply).not.toContain('Far Future Cup');
  });
});

describe('limits and personal data', () => {
  it('refuses the message past the per-minute allowance with 429 and Retry-After, storing nothing of it', async () => {
    const limited = createApi('companion-limit', { COMPANION_MESSAGES_PER_MINUTE: '2' });
    const rider = await register(limited);
    await chat(limited, rider, 'one');
    await chat(limited, rider, 'two', { path: '/api/dm' });
    const res = await sendChat(limited, rider, 'three');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await limited.db((db) => db.collection('bot_chats').countDocuments({ text: 'three' }))).toBe(0);
    const other = await register(limited);
    expect((await sendChat(limited, other, 'my own allowance')).status).toBe(200);
  });

  it("deleting the account removes the rider's companion profile, DM turns and chats", async () => {
    const rider = await register(api);
    await chat(api, rider, 'remember that I ride goofy', { path: '/api/dm' });
    await chat(api, rider, 'hey');
    const userId = new ObjectId(rider._id);
    const res = await api.fetch(`/api/users/${rider._id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${rider.token}` },
    });
    expect(res.status).toBe(200);
    const left = await api.db(async (db) => ({
      profiles: await db.collection('companion_profiles').countDocuments({ userId }),
      chats: await db.collection('bot_chats').countDocuments({ userId }),
      dms: await db.collection('dm_messages').countDocuments({ companion: true, userId: { $exists: false } }),
      mine: await db.collection('dm_messages').countDocuments({ userId }),
      ridesGoofy: await db.collection('dm_messages').countDocuments({ text: /goofy/ }),
    }));
    expect(left).toEqual({ profiles: 0, chats: 0, dms: 0, mine: 0, ridesGoofy: 0 });
  });
});
