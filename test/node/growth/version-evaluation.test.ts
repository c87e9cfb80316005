import { describe, expect, it } from 'vitest';
import { evaluateVersion, isSemanticVersion, requiredFrom } from '../../../worker/growth/version-policy/evaluate';

const policy = {
  latestVersion: '2.4.0',
  minimumSupportedVersion: '1.10.0',
  promptMode: 'required' as 'optional' | 'required',
  effectiveAt: new Date('2026-03-01T00:00:00Z'),
  gracePeriodHours: 48,
};
const afterGrace = new Date('2026-03-03T00:00:00Z');
const state = (version: string, now = afterGrace, p = policy) => evaluateVersion(p, version, now).state;

describe('client version states (interface spec, States and transitions)', () => {
  it('is current at latestVersion', () => expect(state('2.4.0')).toBe('current'));
  it('is current above latestVersion', () => expect(state('2.10.0')).toBe('current'));
  it('is optional below latestVersion and at minimumSupportedVersion', () => expect(state('1.10.0')).toBe('optional'));
  it('is optional between the minimum and the latest', () => expect(state('2.3.9')).toBe('optional'));
  it('is required below the minimum once effectiveAt plus the grace period has passed', () =>
    expect(state('1.9.9')).toBe('required'));
  it('is required exactly at effectiveAt plus the grace period', () =>
    expect(state('1.0.0', new Date('2026-03-03T00:00:00Z'))).toBe('required'));
  it('stays optional below the minimum during the grace period', () =>
    expect(state('1.0.0', new Date('2026-03-02T23:59:59Z'))).toBe('optional'));
  it('stays optional below the minimum while effectiveAt is in the future', () =>
    expect(state('1.0.0', new Date('2026-02-01T00:00:00Z'))).toBe('optional'));
  it('is required at effectiveAt when the grace period is zero', () =>
    expect(state('1.0.0', policy.effectiveAt, { ...policy, gracePeriodHours: 0 })).toBe('required'));
  it('requires the update below the minimum whatever the promptMode (the rows name no other condition)', () =>
    expect(state('1.0.0', afterGrace, { ...policy, promptMode: 'optional' })).toBe('required'));
  it('names when the update becomes required', () =>
    expect(requiredFrom(policy).toISOString()).toBe('2026-03-03T00:00:00.000Z'));
});

describe('semantic version comparison', () => {
  it('compares numerically, not as text: 1.10.0 is above 1.9.9', () => {
    expect(state('1.9.9')).toBe('required');
    expect(state('1.10.0')).toBe('optional');
  });
  it('ignores build metadata when comparing: 1.9.9+500 is still below 1.10.0', () => {
    expect(state('1.9.9+500')).toBe('required');
    expect(state('2.4.0+1')).toBe('current');
  });
  it('puts a pre-release below its release', () => {
    expect(state('2.4.0-rc.1')).toBe('optional');
    expect(state('1.10.0-beta.2')).toBe('required');
  });
  it('accepts strict versions only', () => {
    expect(isSemanticVersion('1.2.3')).toBe(true);
    expect(isSemanticVersion('1.2.3-beta.1')).toBe(true);
    expect(isSemanticVersion('1.4.0+140')).toBe(true);
    expect(isSemanticVersion('1.4.0-rc.1+140.2')).toBe(true);
    for (const bad of ['1.2', 'v1.2.3', '1.2.3+', '=1.2.3', '1.2.3.4', '01.2.3', ' 1.2.3', 'latest', '>=1.0.0'])
      expect(isSemanticVersion(bad), bad).toBe(false);
  });
});
