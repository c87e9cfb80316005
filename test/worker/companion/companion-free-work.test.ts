import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register } from '../../support/accounts';
import { creditState, myCredits } from '../../support/ai-credits';
import { chat, companionApi, sendChat } from '../../support/companion';
import { LONG_TEST_MS } from '../../support/time-limits';

// Work that costs nothing is not paid for: the offline companion's replies and the local speech engine's (espeak-ng,
// the voice box's default) take nothing from the daily allowance and no credit, on any plan.
const offline = companionApi('companion-free-work', { OPENAI_API_KEY: '' });
const SESSION = '6f1c2a9e-3b4d-4c8e-9a1f-0b2c3d4e5f60';
const CHATS = 25;

const usageRows = (riderId: string) =>
  offline.api.db((db) =>
    db
      .collection('usage_events')
      .find({ userId: new ObjectId(riderId) })
      .toArray(),
  );

describe('free work on the free plan', { timeout: LONG_TEST_MS }, () => {
  it(`answers and speaks ${CHATS} offline chats, past the daily allowance, taking neither allowance nor credit`, async () => {
    const { api } = offline;
    await offline.voiceMode('ok');
    const rider = await register(api);
    for (let i = 0; i < CHATS; i++) {
      const res = await sendChat(api, rider, `hey number ${i}`, { voiceSession: SESSION });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.json()).toMatchObject({ spoken: true });
    }
    const spoken = (await offline.spoken()).filter((line) => line.sessionId === SESSION);
    expect(spoken.length).toBeGreaterThanOrEqual(CHATS);
    expect((await myCredits(api, rider)).allowance.used).toBe(0);
    expect(await creditState(api, rider)).toMatchObject({ balance: 0, reserved: 0, holds: 0, entries: [] });
    // Still metered, one row per call, charging nothing.
    const rows = await usageRows(rider._id);
    expect(rows).toHaveLength(2 * CHATS);
    expect(rows.every((row) => row.creditsCharged === 0 && !row.reservationId)).toBe(true);
  });

  it('says why a reply is not spoken: no session, or no voice box', async () => {
    const rider = await register(offline.api);
    expect(await chat(offline.api, rider, 'hey')).toMatchObject({ spoken: false, reason: 'no-session' });
    expect(await chat(offline.api, rider, 'hey', { voiceSession: 'not-a-uuid' })).toMatchObject({
      spoken: false,
      reason: 'no-session',
    });
    const quiet = companionApi('companion-free-work-quiet', { OPENAI_API_KEY: '', VOICE_URL: undefined });
    const other = await register(quiet.api);
    expect(await chat(quiet.api, other, 'hey', { voiceSession: SESSION })).toMatchObject({
      spoken: false,
      reason: 'voice-off',
    });
  });
});

describe('a priced model with the local speech engine', { timeout: LONG_TEST_MS }, () => {
  it('takes the reply from the allowance and speaks it free for a free rider without credit', async () => {
    const priced = companionApi('companion-free-work-priced', { AI_DAILY_REPLIES_FREE: '1' });
    await priced.script({ steps: [{ reply: 'Go skate.' }] });
    await priced.voiceMode('ok');
    const rider = await register(priced.api);
    expect(await chat(priced.api, rider, 'hey', { voiceSession: SESSION })).toMatchObject({ spoken: true });
    expect((await myCredits(priced.api, rider)).allowance.used).toBe(1);
    expect((await sendChat(priced.api, rider, 'again', { voiceSession: SESSION })).status).toBe(402);
    expect(await creditState(priced.api, rider)).toMatchObject({ balance: 0, entries: [] });
  });
});
