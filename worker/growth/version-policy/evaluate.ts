import semver from 'semver';
import type { VersionPolicyFields } from '../documents';

/** What a client at a version should show (the interface spec, States and transitions: Client version rows). */
export type VersionState = 'current' | 'optional' | 'required';

export interface Evaluation {
  state: VersionState;
  /** When a below-minimum client's update becomes required: effectiveAt plus gracePeriodHours. */
  requiredFrom: Date;
}

/**
 * A strict semantic version (`1.10.0`, `2.0.0-beta.1`, `1.4.0+140`); no `v` prefix, no ranges. Build
 * metadata is allowed, as in the analytics envelope, and ignored when comparing (semver's rule).
 */
export function isSemanticVersion(version: string): boolean {
  const parsed = semver.parse(version);
  return parsed !== null && `${parsed.version}${parsed.build.length ? `+${parsed.build.join('.')}` : ''}` === version;
}

/** `a` ≤ `b` in semver order: `1.9.9` < `1.10.0`, and a pre-release below its release. */
export const versionAtMost = (a: string, b: string): boolean => semver.lte(a, b);

/** The moment the required-update grace ends (the interface spec, Limits: gracePeriodHours after effectiveAt). */
export const requiredFrom = (policy: Pick<VersionPolicyFields, 'effectiveAt' | 'gracePeriodHours'>): Date =>
  new Date(policy.effectiveAt.getTime() + policy.gracePeriodHours * 60 * 60 * 1000);

/**
 * The state of a client at `version` under the policy at `now`:
 * at or above latestVersion: current; at or above minimumSupportedVersion: optional;
 * below the minimum: required once effectiveAt plus the grace has passed, optional before that.
 * Exactly the transition rows: promptMode styles the prompt and never softens a required update.
 */
export function evaluateVersion(
  policy: Pick<VersionPolicyFields, 'latestVersion' | 'minimumSupportedVersion' | 'effectiveAt' | 'gracePeriodHours'>,
  version: string,
  now: Date,
): Evaluation {
  const from = requiredFrom(policy);
  if (semver.gte(version, policy.latestVersion)) return { state: 'current', requiredFrom: from };
  if (semver.gte(version, policy.minimumSupportedVersion)) return { state: 'optional', requiredFrom: from };
  return { state: now.getTime() >= from.getTime() ? 'required' : 'optional', requiredFrom: from };
}
