import { describe, expect, it } from 'vitest';
import { tokenEnded } from '../../../durable-objects/socket-attachment';

describe('which joined namespaces a revocation closes', () => {
  const joined = { sid: 's', userId: 'u', tokenVersion: 2, session: 'a'.repeat(24) };
  it('every token signed below the account version now', () => {
    expect(tokenEnded(joined, { belowVersion: 3 })).toBe(true);
    expect(tokenEnded(joined, { belowVersion: 2 })).toBe(false);
  });
  it('a namespace joined before versions were kept counts as version 0', () => {
    expect(tokenEnded({ sid: 's', userId: 'u' }, { belowVersion: 1 })).toBe(true);
  });
  it("some opt-in sessions' tokens, not another's nor a legacy token's", () => {
    expect(tokenEnded(joined, { sessions: ['a'.repeat(24)] })).toBe(true);
    expect(tokenEnded(joined, { sessions: ['c'.repeat(24), 'a'.repeat(24)] })).toBe(true);
    expect(tokenEnded(joined, { sessions: ['b'.repeat(24)] })).toBe(false);
    expect(tokenEnded({ sid: 's', userId: 'u', tokenVersion: 2 }, { sessions: ['a'.repeat(24)] })).toBe(false);
  });
  it('every token, legacy ones included, of a deleted account', () => {
    expect(tokenEnded(joined, { accountDeleted: true })).toBe(true);
    expect(tokenEnded({ sid: 's', userId: 'u' }, { accountDeleted: true })).toBe(true);
  });
});
