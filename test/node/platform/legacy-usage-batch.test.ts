import { describe, expect, it } from 'vitest';
import { LegacyUsageBatch } from '../../../worker/platform/tokens/legacy-usage-batch';

describe('legacy usage batch', () => {
  it('stores a burst of counted requests as one increment per day with their sum', () => {
    const batch = new LegacyUsageBatch();
    for (let i = 0; i < 59; i++) batch.add('2026-11-27');
    expect(batch.add('2026-11-28')).toBe(60);
    expect(batch.increments()).toEqual([
      { day: '2026-11-27', requests: 59 },
      { day: '2026-11-28', requests: 1 },
    ]);
  });
  it('an empty batch writes nothing', () => {
    expect(new LegacyUsageBatch().increments()).toEqual([]);
  });
});
