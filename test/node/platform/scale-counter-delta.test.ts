import { describe, expect, it } from 'vitest';
import { counterDelta, summedDelta } from '../../../bench/scale/counter-delta';

const row = (requests: number, startedAt = 1) => ({
  requests,
  wallMs: requests * 2,
  cpuMs: requests / 2,
  peakPerSecond: 1,
  startedAt,
});

describe('object counter deltas', () => {
  it('subtracts the earlier reading of the same instance', () => {
    expect(counterDelta(row(10), row(25))).toEqual({ requests: 15, wallMs: 30, cpuMs: 7.5 });
  });

  it('counts a restarted (or hibernated and evicted) instance from its restart, never negative', () => {
    expect(counterDelta(row(40, 1), row(3, 2))).toEqual({ requests: 3, wallMs: 6, cpuMs: 1.5 });
    expect(counterDelta(undefined, row(3))).toEqual({ requests: 3, wallMs: 6, cpuMs: 1.5 });
  });

  it('sums instances matched by name, whatever their order', () => {
    const before = [
      { ...row(10), name: 'a' },
      { ...row(5), name: 'b' },
    ];
    const after = [
      { ...row(7), name: 'b' },
      { ...row(11), name: 'a' },
      { ...row(4), name: 'c' },
    ];
    expect(summedDelta(before, after, (r) => r.name).requests).toBe(1 + 2 + 4);
  });
});
