import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { register, registerAdmin } from '../../support/accounts';
import { creditState, grantCredits, myCredits, serverEvents } from '../../support/ai-credits';
import { chat, companionApi, sendChat } from '../../support/companion';
import { setSubscription } from '../../support/spot-lists';

// Paid companion replies against the stand-in model: every call reports 120 prompt and 30
// completion tokens on gpt-4o-mini, 36 USD micros, so at 10 micros a credit a reply costs 4 credits. The voice box
// speaks with the priced engine (free work is test/worker/companion/companion-free-work.test.ts).
const REPLY_MAX = 10;
const REPLY_COST = 4;
const model = companionApi('ai-credits-chat', {
  AI_DAILY_REPLIES_FREE: '2',
  AI_DAILY_REPLIES_PREMIUM: '3',
  AI_CREDIT_MICROS: '10',
  AI_REPLY_MAX_CREDITS: String(REPLY_MAX),
  AI_SPEECH_CREDITS_PER_1K_CHARS: '100',
  VOICE_ENGINE: 'openai',
  // High enough that the per-minute limit never answers before the allowance and credit do.
  COMPANION_MESSAGES_PER_MINUTE: '1000',
});
const { api } = model;
const SESSION = '6f1c2a9e-3b4d-4c8e-9a1f-0b2c3d4e5f60';
const admin = registerAdmin(api);

const storedMessages = (riderId: string) =>
  api.db((db) => db.collection('bot_chats').countDocuments({ userId: new ObjectId(riderId), role: 'user' }));
const usageRows = (riderId: string) =>
  api.db((db) =>
    db
      .collection('usage_events')
      .find({ userId: new ObjectId(riderId) })
      .toArray(),
  );

describe('the daily allowance, then credits', () => {
  it('serves the allowance free, then answers 402 with the balance and what is needed, keeping the message', async () => {
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    const rider = await register(api);
    await chat(api, rider, 'one');
    await chat(api, rider, 'two');
    expect(await creditState(api, rider)).toMatchObject({ balance: 0, reserved: 0, entries: [] });

    for (const text of ['three', 'four']) {
      const refused = await sendChat(api, rider, text);
      expect(refused.status).toBe(402);
      expect(await refused.json()).toEqual({ error: expect.any(String), balance: 0, needed: REPLY_MAX });
    }
    expect(await storedMessages(rider._id)).toBe(4);
    // Recorded once per allowance period, however often the rider is refused.
    expect(await serverEvents(api, rider, 'ai_allowance_exhausted')).toEqual([
      expect.objectContaining({ properties: { surface: 'bot', plan: 'free' } }),
    ]);
    expect(await myCredits(api, rider)).toEqual({
      balance: 0,
      reserved: 0,
      allowance: { used: 2, limit: 2, resetsAt: expect.stringMatching(/T00:00:00\.000Z$/) },
    });
  });

  it('spends credit beyond the allowance: reserves the most, settles the real cost, gives the rest back', async () => {
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    const rider = await register(api);
    await chat(api, rider, 'one');
    await chat(api, rider, 'two');
    await grantCredits(api, await admin, rider, 25);
    await chat(api, rider, 'three');
    const state = await creditState(api, rider);
    expect(state).toMatchObject({ balance: 25 - REPLY_COST, reserved: 0, holds: 0, ledgerSum: 25 - REPLY_COST });
    expect(state.entries.map((entry) => entry.kind)).toEqual(['grant', 'reserve', 'settle']);
    expect(state.entries.map((entry) => entry.amount)).toEqual([25, -REPLY_MAX, REPLY_MAX - REPLY_COST]);
    expect(await serverEvents(api, rider, 'ai_credit_debited')).toEqual([
      expect.objectContaining({ properties: { credits: REPLY_COST, operation: 'chat' } }),
    ]);
    // One usage row per call: two within the allowance (nothing charged), one on credit.
    const rows = await usageRows(rider._id);
    expect(rows.map((row) => row.creditsCharged).sort()).toEqual([0, 0, REPLY_COST]);
    expect(rows.every((row) => row.model === 'gpt-4o-mini' && row.inputTokens === 120 && !('text' in row))).toBe(true);
    expect(rows.find((row) => row.creditsCharged)?.reservationId).toEqual(expect.any(String));
  });

  it("uses the premium plan's allowance for a premium rider", async () => {
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    const rider = await register(api);
    await setSubscription(api, rider);
    for (const text of ['one', 'two', 'three']) await chat(api, rider, text);
    expect((await sendChat(api, rider, 'four')).status).toBe(402);
    expect((await myCredits(api, rider)).allowance).toMatchObject({ used: 3, limit: 3 });
  });

  it('never exceeds the allowance with parallel requests at its edge', async () => {
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    const rider = await register(api);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => sendChat(api, rider, `edge ${i}`).then((res) => res.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 402)).toHaveLength(6);
    expect(await storedMessages(rider._id)).toBe(8);
  });
});

describe('reservations under load', () => {
  it('serves every request whose reservation succeeded, refuses the rest with 402, never goes below zero', async () => {
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    const rider = await register(api);
    await chat(api, rider, 'one');
    await chat(api, rider, 'two');
    // Credit for five replies at their most.
    await grantCredits(api, await admin, rider, 5 * REPLY_MAX);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sendChat(api, rider, `parallel ${i}`).then(async (res) => ({ status: res.status, body: await res.json() })),
      ),
    );
    const served = answers.filter((answer) => answer.status === 200).length;
    expect(served).toBeGreaterThanOrEqual(5);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(402);
      expect(answer.body).toMatchObject({ needed: REPLY_MAX });
      expect((answer.body as { balance: number }).balance).toBeGreaterThanOrEqual(0);
    }
    const state = await creditState(api, rider);
    expect(state).toMatchObject({ reserved: 0, holds: 0, balance: 5 * REPLY_MAX - served * REPLY_COST });
    expect(state.ledgerSum).toBe(state.balance);
    expect(await storedMessages(rider._id)).toBe(22);
    // Every settled reservation has exactly one usage row.
    const settled = await api.db((db) =>
      db
        .collection('credit_ledger')
        .find({ userId: new ObjectId(rider._id), kind: 'settle' })
        .toArray(),
    );
    const charged = (await usageRows(rider._id)).filter((row) => row.reservationId);
    expect(settled).toHaveLength(served);
    expect(charged.map((row) => row.reservationId).sort()).toEqual(settled.map((entry) => entry.reservationId).sort());
  });
});

describe('a failed generation', () => {
  it('releases the reservation in the same request when the model fails', async () => {
    const rider = await register(api);
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    await chat(api, rider, 'one');
    await chat(api, rider, 'two');
    await grantCredits(api, await admin, rider, 30);
    await model.script({ steps: [{ status: 500 }] });
    expect((await sendChat(api, rider, 'three')).status).toBe(502);
    const state = await creditState(api, rider);
    expect(state).toMatchObject({ balance: 30, reserved: 0, holds: 0, ledgerSum: 30 });
    expect(state.entries.map((entry) => entry.kind)).toEqual(['grant', 'reserve', 'release']);
    expect(await usageRows(rider._id)).toHaveLength(2);
  });

  it('gives the allowance back when the model fails within it', async () => {
    const rider = await register(api);
    await model.script({ steps: [{ status: 500 }] });
    expect((await sendChat(api, rider, 'one')).status).toBe(502);
    expect((await myCredits(api, rider)).allowance.used).toBe(0);
  });
});

describe('speech', () => {
  it('speaks for a free rider with credit, charging by characters, and says spoken: true', async () => {
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    await model.voiceMode('ok');
    const rider = await register(api);
    await grantCredits(api, await admin, rider, 10);
    const res = await chat(api, rider, 'hey', { voiceSession: SESSION });
    expect(res).toMatchObject({ spoken: true });
    // 'Go skate.' is 9 characters at 100 credits per 1,000: one credit.
    expect(await creditState(api, rider)).toMatchObject({ balance: 9, reserved: 0, ledgerSum: 9 });
    expect((await model.spoken()).at(-1)).toEqual({ sessionId: SESSION, body: { text: 'Go skate.' } });
  });

  it('serves a free rider without credit the text reply unspoken (spoken: false), never a refusal', async () => {
    await model.script({ steps: [{ reply: 'Unspoken line.' }] });
    await model.voiceMode('ok');
    const rider = await register(api);
    const res = await chat(api, rider, 'hey', { voiceSession: SESSION });
    expect(res).toMatchObject({ reply: 'Unspoken line.', spoken: false, reason: 'no-credit' });
    expect((await model.spoken()).some((line) => line.body.text === 'Unspoken line.')).toBe(false);
  });

  it('refunds paid speech the voice box did not take', async () => {
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    await model.voiceMode('fail');
    const rider = await register(api);
    await grantCredits(api, await admin, rider, 10);
    expect(await chat(api, rider, 'hey', { voiceSession: SESSION })).toMatchObject({ spoken: true });
    expect(await creditState(api, rider)).toMatchObject({ balance: 10, reserved: 0, ledgerSum: 10 });
  });

  it('speaks free on premium, and says `no-session` without a voice session', async () => {
    await model.script({ steps: [{ reply: 'Go skate.' }] });
    await model.voiceMode('ok');
    const rider = await register(api);
    await setSubscription(api, rider);
    expect(await chat(api, rider, 'hey', { voiceSession: SESSION })).toMatchObject({ spoken: true });
    expect(await chat(api, rider, 'hey')).toMatchObject({ spoken: false, reason: 'no-session' });
    expect(await creditState(api, rider)).toMatchObject({ balance: 0, entries: [] });
  });
});
