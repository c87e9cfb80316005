import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { readCompanionChatRow, readCompanionPersona } from '../../../worker/companion/stored';

describe("the companion's readers", () => {
  it('read a persona from a profile older code stored', () => {
    expect(
      readCompanionPersona({
        interactionCount: '25',
        stage: 'pal',
        facts: 'likes rails',
        sports: { 0: 'bmx' },
        name: 7,
      }),
    ).toEqual({ name: '7', stage: 'friend', facts: ['likes rails'], sports: ['bmx'] });
    expect(readCompanionPersona({ stage: 'bestie', facts: null })).toEqual({ stage: 'bestie', facts: [], sports: [] });
  });

  it('read a chat row, leaving one with no text, role or usable id unread', () => {
    const id = new ObjectId();
    const row = { _id: id, userId: id.toHexString(), role: 'user', text: 'hey', createdAt: '2020-01-01T00:00:00Z' };
    expect(readCompanionChatRow(row)).toEqual({
      _id: id,
      userId: id,
      role: 'user',
      text: 'hey',
      createdAt: new Date('2020-01-01T00:00:00Z'),
    });
    expect(readCompanionChatRow({ ...row, text: null })).toBeUndefined();
    expect(readCompanionChatRow({ ...row, role: 'system' })).toBeUndefined();
    expect(readCompanionChatRow({ ...row, _id: 'row-1' })).toBeUndefined();
  });
});
