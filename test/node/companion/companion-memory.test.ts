import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { type MemoryRow, mergeCompanionMemory } from '../../../worker/companion/chat/memory';

const rider = new ObjectId();
const other = new ObjectId();
const base = Date.UTC(2026, 4, 1, 12);

/** A row `minute` minutes after the base time; ids follow creation order. */
const row = (text: string, minute: number, role: MemoryRow['role'] = 'user', userId = rider): MemoryRow => ({
  _id: new ObjectId(),
  userId,
  role,
  text,
  createdAt: new Date(base + minute * 60_000),
});

const texts = (turns: { text: string }[]) => turns.map((turn) => turn.text);

describe('the companion memory rule', () => {
  it('takes the newest 8 of each store, merges them by time and keeps the newest 12', () => {
    const dm = Array.from({ length: 10 }, (_, i) => row(`dm${i}`, i * 2));
    const bot = Array.from({ length: 10 }, (_, i) => row(`bot${i}`, i * 2 + 1));
    const memory = mergeCompanionMemory({ userId: rider, dm, bot, prompt: { text: 'new question' } });
    // dm2..dm9 and bot2..bot9 are the newest 8 of each; merged oldest first, the newest 12 start at dm4.
    expect(texts(memory)).toEqual([
      'dm4',
      'bot4',
      'dm5',
      'bot5',
      'dm6',
      'bot6',
      'dm7',
      'bot7',
      'dm8',
      'bot8',
      'dm9',
      'bot9',
    ]);
  });

  it('fills from the other store when one holds fewer than 8', () => {
    const dm = [row('dm0', 0), row('dm1', 30)];
    const bot = Array.from({ length: 12 }, (_, i) => row(`bot${i}`, i + 1));
    const memory = mergeCompanionMemory({ userId: rider, dm, bot, prompt: { text: 'x' } });
    expect(texts(memory)).toEqual(['dm0', 'bot4', 'bot5', 'bot6', 'bot7', 'bot8', 'bot9', 'bot10', 'bot11', 'dm1']);
  });

  it('orders rows with the same time by id, then the DM store first, the same way every time', () => {
    const a = row('a', 5);
    const b = row('b', 5);
    const tie = { ...row('c', 5), _id: a._id };
    const once = mergeCompanionMemory({ userId: rider, dm: [b, a], bot: [tie], prompt: { text: 'x' } });
    const again = mergeCompanionMemory({ userId: rider, dm: [a, b], bot: [tie], prompt: { text: 'x' } });
    expect(texts(once)).toEqual(['a', 'c', 'b']);
    expect(texts(again)).toEqual(texts(once));
  });

  it('keeps the newest rows of a store when the 8th and 9th share a time', () => {
    const dm = Array.from({ length: 9 }, (_, i) => row(`dm${i}`, i === 0 ? 1 : i));
    const memory = mergeCompanionMemory({ userId: rider, dm, bot: [], prompt: { text: 'x' } });
    // dm0 and dm1 share minute 1; dm1 has the later id, so dm0 is the one left out.
    expect(texts(memory)).toEqual(['dm1', 'dm2', 'dm3', 'dm4', 'dm5', 'dm6', 'dm7', 'dm8']);
  });

  it('drops the stored prompt and an earlier copy of it, after trimming to 12', () => {
    const bot = Array.from({ length: 8 }, (_, i) => row(`bot${i}`, i, i % 2 ? 'assistant' : 'user'));
    const earlier = row('Spots near Berlin?', 8);
    const answer = row('Try Mellowpark.', 9, 'assistant');
    const prompt = row('spots near berlin? ', 10);
    const dm = [row('dm0', -5), earlier, answer, prompt];
    const memory = mergeCompanionMemory({ userId: rider, dm, bot, prompt: { id: prompt._id, text: prompt.text } });
    // 12 newest of the 12 rows: dm0 is the oldest and stays; both copies of the prompt go, the answer stays.
    expect(texts(memory)).toEqual(['dm0', ...bot.map((r) => r.text), 'Try Mellowpark.']);
  });

  it('keeps an assistant line that happens to equal the prompt', () => {
    const echo = row('ok', 1, 'assistant');
    const memory = mergeCompanionMemory({ userId: rider, dm: [echo], bot: [], prompt: { text: 'ok' } });
    expect(texts(memory)).toEqual(['ok']);
  });

  it("never includes another rider's messages, even when handed them", () => {
    const mine = row('mine', 1);
    const theirs = [row('theirs', 2, 'user', other), row('their answer', 3, 'assistant', other)];
    const memory = mergeCompanionMemory({ userId: rider, dm: [mine, ...theirs], bot: theirs, prompt: { text: 'x' } });
    expect(texts(memory)).toEqual(['mine']);
  });

  it('is empty for a rider with no history', () => {
    expect(mergeCompanionMemory({ userId: rider, dm: [], bot: [], prompt: { text: 'hi' } })).toEqual([]);
  });
});
