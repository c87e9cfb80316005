import type { MobileVersionPolicyChangeDoc, MobileVersionPolicyDoc, VersionPolicyFields } from '../documents';
import type { Evaluation } from './evaluate';

const fieldsView = (policy: VersionPolicyFields) => ({
  latestVersion: policy.latestVersion,
  minimumSupportedVersion: policy.minimumSupportedVersion,
  promptMode: policy.promptMode,
  title: policy.title,
  message: policy.message,
  storeUrl: policy.storeUrl,
  effectiveAt: policy.effectiveAt.toISOString(),
  gracePeriodHours: policy.gracePeriodHours,
});

/** The version policy object of the interface spec, with its platform. */
export const policyView = (policy: MobileVersionPolicyDoc) => ({
  platform: policy.platform,
  ...fieldsView(policy),
  policyRevision: policy.policyRevision,
});

export const evaluationView = (evaluation: Evaluation, version: string, build: number | undefined) => ({
  version,
  ...(build !== undefined ? { build } : {}),
  state: evaluation.state,
  requiredFrom: evaluation.requiredFrom.toISOString(),
});

export const policyChangeView = (change: MobileVersionPolicyChangeDoc) => ({
  _id: change._id.toHexString(),
  platform: change.platform,
  policyRevision: change.policyRevision,
  reason: change.reason,
  actorId: change.actorId?.toHexString() ?? null,
  changedAt: change.changedAt.toISOString(),
  policy: fieldsView(change.policy),
});
