import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { recordTurn } from '../../../worker/companion/chat/profile';
import { STAGE_THRESHOLDS } from '../../../worker/companion/chat/stages';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { register } from '../../support/accounts';
import { chat } from '../../support/companion';
import { createApi } from '../../support/worker-api';

// Offline companion; the profile is the same whichever model answers.
const api = createApi('companion-profile');

const profileOf = (riderId: string) =>
  api.db((db) => db.collection('companion_profiles').findOne({ userId: new ObjectId(riderId) }));

const acquaintanceFrom = STAGE_THRESHOLDS.find((row) => row.stage === 'acquaintance')!.from;

describe('the companion profile', () => {
  it('starts on the first turn: count 1, stranger, the account name, the mood of the message', async () => {
    const rider = await register(api, { name: 'Alex Rider' });
    const body = await chat(api, rider, 'finally landed my first kickflip');
    expect(body.stage).toBe('stranger');
    expect(await profileOf(rider._id)).toMatchObject({
      interactionCount: 1,
      stage: 'stranger',
      name: 'Alex Rider',
      facts: [],
      sports: [],
      lastMood: 'stoked',
    });
  });

  it('advances to the next stage at its threshold, and says so in the reply', async () => {
    const rider = await register(api);
    const stages = [];
    for (let turn = 1; turn <= acquaintanceFrom; turn++) stages.push((await chat(api, rider, `turn ${turn}`)).stage);
    expect(stages.at(-2)).toBe('stranger');
    expect(stages.at(-1)).toBe('acquaintance');
    expect(await profileOf(rider._id)).toMatchObject({ interactionCount: acquaintanceFrom, stage: 'acquaintance' });
  });

  it('never loses a count when turns arrive at once, and keeps one profile per rider', async () => {
    const rider = await register(api);
    const turns = 8;
    const replies = await Promise.all(
      Array.from({ length: turns }, (_, i) =>
        chat(api, rider, `at once ${i}`, { path: i % 2 ? '/api/dm' : undefined }),
      ),
    );
    expect(replies).toHaveLength(turns);
    const userId = new ObjectId(rider._id);
    const profiles = await api.db((db) => db.collection('companion_profiles').find({ userId }).toArray());
    expect(profiles).toHaveLength(1);
    expect(profiles[0]!.interactionCount).toBe(turns);
    expect(profiles[0]!.stage).toBe('acquaintance');
    const sessions = await api.db((db) =>
      db.collection('analytics_events').countDocuments({ userId, name: 'ai_session_started' }),
    );
    expect(sessions).toBe(1);
  });

  it('says one of two turns in the same millisecond began the session, not both', async () => {
    const rider = await register(api);
    await chat(api, rider, 'hello');
    const userId = new ObjectId(rider._id);
    // A quiet gap since the last turn, so the next turn starts a session.
    await api.db((db) =>
      db.collection('companion_profiles').updateOne({ userId }, { $set: { lastTurnAt: new Date(0) } }),
    );
    const connection = openRequestConnection(api.env);
    try {
      const learnings = { facts: [], sports: [], mood: 'neutral' as const };
      // Started in one tick: workerd's clock only moves across I/O, so both turns read the same millisecond.
      const turns = await Promise.all([
        recordTurn(connection.store, userId, learnings),
        recordTurn(connection.store, userId, learnings),
      ]);
      expect(turns[0]!.profile.sessionStartedAt).toEqual(turns[1]!.profile.sessionStartedAt);
      expect(turns.map((turn) => turn.sessionStarted).sort()).toEqual([false, true]);
    } finally {
      await connection.release();
    }
  });

  it('remembers facts once whatever their case, the name the rider goes by, and a sport', async () => {
    const rider = await register(api, { name: 'Account Name' });
    await chat(api, rider, 'remember that I ride goofy');
    await chat(api, rider, 'Remember that I RIDE GOOFY');
    await chat(api, rider, 'my name is Sam');
    await chat(api, rider, 'I ride bmx on weekends');
    const profile = await profileOf(rider._id);
    expect(profile).toMatchObject({ facts: ['I RIDE GOOFY'], name: 'Sam', sports: ['bmx'] });
    // Past the stranger stage the companion greets the rider by that name.
    expect((await chat(api, rider, 'nice weather')).stage).toBe('acquaintance');
    expect((await chat(api, rider, 'hey')).reply).toBe('Hey, Sam. What are we riding today?');
  });

  it('keeps the newest facts when the cap is reached', async () => {
    const rider = await register(api);
    await chat(api, rider, 'hello');
    const old = Array.from({ length: 20 }, (_, i) => `fact ${i}`);
    await api.db((db) =>
      db.collection('companion_profiles').updateOne({ userId: new ObjectId(rider._id) }, { $set: { facts: old } }),
    );
    await chat(api, rider, 'remember that fact 3 matters most');
    await chat(api, rider, 'remember that fact 5');
    const { facts } = (await profileOf(rider._id))!;
    expect(facts).toHaveLength(20);
    // "fact 5" moved to the end as the newest; the oldest ones gave way.
    expect(facts.slice(0, 2)).toEqual(['fact 1', 'fact 2']);
    expect(facts.slice(-2)).toEqual(['fact 3 matters most', 'fact 5']);
    expect(facts.filter((fact: string) => fact === 'fact 5')).toHaveLength(1);
  });
});
