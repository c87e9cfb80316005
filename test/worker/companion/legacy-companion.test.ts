import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { chat } from '../../support/companion';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { createApi } from '../../support/worker-api';

// The companion's profile and chat rows as older code stored them, written straight through the driver.
const api = createApi('legacy-companion');

const storeProfile = (fields: Record<string, unknown>) =>
  api.db((db) => db.collection('companion_profiles').insertOne({ _id: new ObjectId(), ...fields }));
const profilesOf = (riderId: string) =>
  api.db((db) =>
    db
      .collection('companion_profiles')
      .find({ userId: { $in: [new ObjectId(riderId), riderId] } })
      .toArray(),
  );

describe('the companion over a profile older code stored', () => {
  it('counts on from a count stored as a string, keeping facts and sports stored as one text', async () => {
    const rider = await register(api);
    await storeProfile({
      userId: new ObjectId(rider._id),
      interactionCount: '12',
      stage: 'pal',
      facts: 'rides a 8.25 deck',
      sports: 'skateboarding',
      name: 42,
      lastTurnAt: '2020-01-01T00:00:00.000Z',
      sessionStartedAt: 'yesterday',
      __v: 3,
    });
    const body = await chat(api, rider, 'my name is Sam, I ride snowboarding too');
    expect(body.stage).toBe('acquaintance');
    const [profile] = await profilesOf(rider._id);
    expect(profile).toMatchObject({ interactionCount: 13, stage: 'acquaintance' });
    expect(profile!.facts).toContain('rides a 8.25 deck');
    expect(profile!.sports).toContain('skateboarding');
  });

  it('takes over a profile whose userId is stored as a hex string, rather than starting a second one', async () => {
    const rider = await register(api);
    await storeProfile({ userId: rider._id, interactionCount: 4, facts: ['likes rails'], sports: [] });
    await chat(api, rider, 'hey again');
    const profiles = await profilesOf(rider._id);
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ userId: new ObjectId(rider._id), interactionCount: 5 });
  });

  it('answers over facts and sports stored as lists holding other values, and a profile with odd fields', async () => {
    const rider = await register(api);
    await storeProfile({
      userId: new ObjectId(rider._id),
      interactionCount: null,
      facts: ['likes rails', 7, null, { old: true }],
      sports: { 0: 'bmx' },
      createdAt: 'not a date',
    });
    await chat(api, rider, 'what do you remember about me?');
    const [profile] = await profilesOf(rider._id);
    expect(profile).toMatchObject({ interactionCount: 1 });
    expect(profile!.facts).toEqual(['likes rails']);
  });
});

describe("the companion's memory over chat rows older code stored", () => {
  it('answers when earlier rows hold a null text, a date as a string, an id as a hex string or no role', async () => {
    const rider = await register(api);
    const userId = new ObjectId(rider._id);
    await api.db((db) =>
      db.collection<{ _id: ObjectId | string; [field: string]: unknown }>('bot_chats').insertMany([
        { _id: new ObjectId(), userId, role: 'user', text: null, createdAt: new Date() },
        { _id: new ObjectId(), userId, role: 'assistant', text: 'stay loose', createdAt: '2021-03-04T05:06:07Z' },
        { _id: new ObjectId(), userId: rider._id, role: 'user', text: 'old hex row', createdAt: 1600000000000 },
        { _id: new ObjectId(), userId, text: 'no role', createdAt: new Date() },
        { _id: 'a-string-id', userId, role: 'user', text: 'string id', createdAt: new Date() },
      ]),
    );
    await api.db((db) =>
      db.collection('dm_messages').insertOne({ _id: new ObjectId(), userId, companion: true, role: 'user', text: 5 }),
    );
    // The unreadable rows are left out, each with its event line: expected here, so kept out of the output.
    const lines = await captureLogLines(async () => {
      for (const path of ['/api/bot-chat/message', '/api/dm']) {
        const body = await chat(api, rider, 'remember me?', { path });
        expect(body.reply.length).toBeGreaterThan(0);
      }
    });
    expect(eventLines(lines, 'store.document.unreadable').length).toBeGreaterThan(0);
  });
});
