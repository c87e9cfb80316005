import { describe, expect, it } from 'vitest';
import { bucketOf, murmur3, variantFor } from '../../../worker/growth/experiments/assignment';

describe('murmur3', () => {
  it('matches the reference MurmurHash3 x86 32-bit vectors', () => {
    expect(murmur3('')).toBe(0);
    expect(murmur3('', 1)).toBe(0x514e28b7);
    expect(murmur3('hello')).toBe(0x248bfa47);
    expect(murmur3('Hello, world!', 1234)).toBe(0xfaf6cdb3);
    expect(murmur3('The quick brown fox jumps over the lazy dog')).toBe(0x2e4ff723);
    // Multi-byte UTF-8 goes through as bytes.
    expect(murmur3('ü')).toBe(murmur3('\u00fc'));
  });
});

describe('variantFor', () => {
  const variants = [
    { key: 'control', weight: 50 },
    { key: 'bigger_button', weight: 30 },
    { key: 'coach_nudge', weight: 20 },
  ];

  it('is a pure function of the experiment key and the unit id', () => {
    for (let i = 0; i < 100; i++) {
      const unit = `unit-${i}`;
      expect(variantFor('onboarding_copy', variants, unit)).toBe(variantFor('onboarding_copy', variants, unit));
    }
    expect(bucketOf('a', 'b')).toBe(murmur3('a:b') % 100);
  });

  it('follows the weights within two percentage points over 10,000 synthetic units', () => {
    const counts: Record<string, number> = {};
    for (let i = 0; i < 10_000; i++) {
      const variant = variantFor('onboarding_copy', variants, crypto.randomUUID());
      counts[variant] = (counts[variant] ?? 0) + 1;
    }
    // Four binomial standard deviations at n = 10,000 are at most 2 points: a fair hash stays inside.
    for (const { key, weight } of variants) expect(Math.abs((counts[key] ?? 0) / 100 - weight)).toBeLessThan(2);
  });

  it('assigns a unit independently across experiments', () => {
    const both = { control: 0, treatment: 0 };
    const halves = [
      { key: 'control', weight: 50 },
      { key: 'treatment', weight: 50 },
    ];
    for (let i = 0; i < 10_000; i++) {
      const unit = `u${i}`;
      if (variantFor('first', halves, unit) === 'control') both[variantFor('second', halves, unit) as 'control']++;
    }
    // Among first-experiment controls, the second experiment still splits about half and half.
    expect(Math.abs(both.control - both.treatment) / (both.control + both.treatment)).toBeLessThan(0.06);
  });

  it('puts bucket b in the variant whose cumulative range holds it, control first', () => {
    const units = Array.from({ length: 2_000 }, (_, i) => `u${i}`);
    for (const unit of units) {
      const bucket = bucketOf('edges', unit);
      const expected = bucket < 50 ? 'control' : bucket < 80 ? 'bigger_button' : 'coach_nudge';
      expect(variantFor('edges', variants, unit)).toBe(expected);
    }
  });
});
