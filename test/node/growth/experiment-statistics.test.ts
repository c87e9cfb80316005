import { describe, expect, it } from 'vitest';
import {
  chiSquareSurvival,
  rate,
  sampleRatioCheck,
  waldDifference,
} from '../../../worker/growth/experiments/statistics';

describe('rate and the Wald interval', () => {
  it('computes the hand-worked example: 60/200 against 40/200', () => {
    expect(rate(60, 200)).toBe(0.3);
    expect(rate(0, 0)).toBeNull();
    // d = 0.3 − 0.2 = 0.1; se = √(0.3·0.7/200 + 0.2·0.8/200) = √0.00185 = 0.04301163; 1.959964·se = 0.0843012.
    const interval = waldDifference({ units: 200, converted: 60 }, { units: 200, converted: 40 })!;
    expect(interval.difference).toBeCloseTo(0.1, 12);
    expect(interval.low).toBeCloseTo(0.0156988, 6);
    expect(interval.high).toBeCloseTo(0.1843012, 6);
  });

  it('is symmetric and has no width when both rates are 0 or 1', () => {
    expect(waldDifference({ units: 10, converted: 0 }, { units: 10, converted: 0 })).toEqual({
      difference: 0,
      low: 0,
      high: 0,
    });
    expect(waldDifference({ units: 0, converted: 0 }, { units: 10, converted: 3 })).toBeNull();
  });
});

describe('chi-square survival', () => {
  it('matches the table values', () => {
    expect(chiSquareSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 10);
    expect(chiSquareSurvival(10.827566170662733, 1)).toBeCloseTo(0.001, 10);
    expect(chiSquareSurvival(5.991464547107979, 2)).toBeCloseTo(0.05, 10);
    expect(chiSquareSurvival(0, 3)).toBe(1);
    // With two degrees of freedom the survival is exactly e^(−x/2).
    for (const x of [0.5, 2, 9, 40]) expect(chiSquareSurvival(x, 2)).toBeCloseTo(Math.exp(-x / 2), 12);
  });
});

describe('sample-ratio check', () => {
  it('passes a split that matches the weights', () => {
    expect(
      sampleRatioCheck([
        { units: 200, weight: 50 },
        { units: 200, weight: 50 },
      ]),
    ).toEqual({
      chiSquare: 0,
      degreesOfFreedom: 1,
      pValue: 1,
      mismatch: false,
    });
  });

  it('flags 600 against 400 on a 50/50 experiment (chi-square 40, p ≈ 2.5e−10)', () => {
    const check = sampleRatioCheck([
      { units: 600, weight: 50 },
      { units: 400, weight: 50 },
    ]);
    expect(check.chiSquare).toBeCloseTo(40, 10);
    expect(check.pValue).toBeCloseTo(2.539e-10, 12);
    expect(check.mismatch).toBe(true);
  });

  it('uses the weights: 700/300 is right for 70/30, and 530/470 on 50/50 is not flagged (p ≈ 0.058)', () => {
    expect(
      sampleRatioCheck([
        { units: 700, weight: 70 },
        { units: 300, weight: 30 },
      ]).chiSquare,
    ).toBe(0);
    const mild = sampleRatioCheck([
      { units: 530, weight: 50 },
      { units: 470, weight: 50 },
    ]);
    expect(mild.chiSquare).toBeCloseTo(3.6, 10);
    expect(mild.mismatch).toBe(false);
  });

  it('answers no p-value before anyone is exposed', () => {
    expect(
      sampleRatioCheck([
        { units: 0, weight: 50 },
        { units: 0, weight: 50 },
      ]).pValue,
    ).toBeNull();
  });
});
