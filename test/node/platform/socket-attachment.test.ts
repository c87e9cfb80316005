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
  it("one opt-in session's tokens, not another's nor a legacy token's", () => {
    expect(tokenEnded(joined, { session: 'a'.repeat(24) })).toBe(true);
    expect(tokenEnded(joined, { session: 'b'.repeat(24) })).toBe(false);
    expect(tokenEnded({ sid: 's', userId: 'u', tokenVersion: 2 }, { session: 'a'.repeat(24) })).toBe(false);
  });
});
