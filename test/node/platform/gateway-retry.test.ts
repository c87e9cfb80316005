import { describe, expect, it } from 'vitest';
import { mayRetry } from '../../../worker/platform/db/gateway-retry';

// A call the failed gateway object may already have run goes to another object only if running it twice is harmless.

describe('which gateway calls run again on another object', () => {
  const failed = new Error('the object went away');

  it('reads and read-only commands', () => {
    expect(mayRetry('find', [{}], failed)).toBe(true);
    expect(mayRetry('aggregate', [[]], failed)).toBe(true);
    expect(mayRetry('command', [{ ping: 1 }], failed)).toBe(true);
  });

  it('not a write, nor a command that writes: an insert may have stored its documents already', () => {
    expect(mayRetry('insertMany', [[]], failed)).toBe(false);
    expect(mayRetry('updateOne', [{}, {}], failed)).toBe(false);
    expect(mayRetry('command', [{ insert: 'analytics_events', documents: [] }], failed)).toBe(false);
    expect(mayRetry('command', [{ findAndModify: 'users' }], failed)).toBe(false);
  });

  it('a write the object refused unrun (overloaded)', () => {
    expect(
      mayRetry('command', [{ insert: 'analytics_events' }], Object.assign(new Error('busy'), { overloaded: true })),
    ).toBe(true);
  });
});
