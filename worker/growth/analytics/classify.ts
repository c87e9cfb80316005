import { ObjectId } from 'mongodb';
import type { z } from 'zod';
import { acceptOrParse, fastAcceptor } from '../../platform/http/fast-accept';
import { LIMITS } from '../../platform/limits';
import type { AnalyticsEventDoc, AnalyticsQuarantineDoc } from '../documents';
import { EnvelopeFields, type QuarantineReason } from './envelope';
import { type ExperimentCatalog, exposureRefusal } from './exposures';
import { ANALYTICS_EVENTS, EXPOSURE_EVENT, isAnalyticsEventName } from './taxonomy';

/** One incoming envelope sorted: an event to store, or a quarantine row with its reason. */
export type Classified =
  | { kind: 'event'; doc: AnalyticsEventDoc }
  | { kind: 'quarantine'; doc: AnalyticsQuarantineDoc; reason: QuarantineReason };

const NAME_SHAPE = /^[a-z][a-z0-9_]{0,63}$/;
const KEY_SHAPE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const stringOf = (value: unknown, shape: RegExp) =>
  typeof value === 'string' && shape.test(value) ? value : undefined;

/** Paths and codes only: a zod message may quote the refused value. */
const issuesOf = (error: z.ZodError) =>
  error.issues.slice(0, LIMITS.analytics.quarantineKeysMax).map((issue) => ({
    path: issue.path.map(String).join('.'),
    code: issue.code,
  }));

/** Built once: constructing a zod schema costs more than parsing with it, and a batch may quarantine every envelope. */
const ENVELOPE_FIELDS_ANY = EnvelopeFields.partial();

// Valid envelopes, nearly all of them, skip zod's machinery; any other is parsed by zod for its issues as ever.
const ACCEPT_ENVELOPE = fastAcceptor(EnvelopeFields);
const ACCEPT_PROPERTIES = new Map(
  Object.entries(ANALYTICS_EVENTS).map(([name, event]) => [name, fastAcceptor(event.properties)]),
);

/** What a quarantine row keeps of the raw envelope: shaped ids and versions, property keys, never values. */
function quarantine(
  raw: Record<string, unknown>,
  reason: QuarantineReason,
  issues: AnalyticsQuarantineDoc['issues'],
  caller: ObjectId | null,
  receivedAt: Date,
): Classified {
  const fields = ENVELOPE_FIELDS_ANY.safeParse(raw);
  const ok = fields.success ? fields.data : {};
  const eventId = stringOf(raw.eventId, UUID_SHAPE)?.toLowerCase();
  const name = stringOf(raw.name, NAME_SHAPE);
  const anonymousId = 'anonymousId' in ok ? ok.anonymousId : undefined;
  const doc: AnalyticsQuarantineDoc = {
    _id: new ObjectId(),
    ...(eventId ? { eventId } : {}),
    ...(name ? { name } : {}),
    reason,
    issues,
    receivedAt,
    userId: caller,
    ...(anonymousId ? { anonymousId } : {}),
    ...(typeof raw.schemaVersion === 'number' ? { schemaVersion: raw.schemaVersion } : {}),
    ...('platform' in ok && ok.platform ? { platform: ok.platform } : {}),
    ...('appVersion' in ok && ok.appVersion ? { appVersion: ok.appVersion } : {}),
    propertyKeys: Object.keys(record(raw.properties))
      .filter((key) => KEY_SHAPE.test(key))
      .slice(0, LIMITS.analytics.quarantineKeysMax),
  };
  return { kind: 'quarantine', doc, reason };
}

/** Who the event may name: the signed-in caller, or nobody but an installation when anonymous. */
function identityRefusal(envelope: EnvelopeFields, caller: ObjectId | null): QuarantineReason | null {
  if (envelope.userId) {
    if (!caller) return 'unauthenticated-user';
    if (envelope.userId !== caller.toHexString()) return 'user-mismatch';
    return null;
  }
  return envelope.anonymousId ? null : 'missing-identity';
}

/**
 * Sorts one envelope by the ingestion rules (the interface spec: unknown names, properties or
 * schema versions go to quarantine; properties hold IDs and bounded enums only). Pure: the
 * caller is the signed-in account (null when anonymous), receivedAt the server's clock, experiments the defined
 * experiments an `experiment_exposed` event must name (an unknown key or variant is quarantined).
 */
export function classifyEvent(
  input: unknown,
  caller: ObjectId | null,
  receivedAt: Date,
  experiments: ExperimentCatalog = new Map(),
): Classified {
  const raw = record(input);
  const refuse = (reason: QuarantineReason, issues: AnalyticsQuarantineDoc['issues'] = []) =>
    quarantine(raw, reason, issues, caller, receivedAt);
  if (raw.schemaVersion !== LIMITS.analytics.schemaVersion) {
    return refuse('unknown-schema-version', [{ path: 'schemaVersion', code: 'unknown' }]);
  }
  const envelope = acceptOrParse(EnvelopeFields, ACCEPT_ENVELOPE, input);
  if (!envelope.success) return refuse('invalid-envelope', issuesOf(envelope.error));
  const { name } = envelope.data;
  if (!isAnalyticsEventName(name)) return refuse('unknown-name', [{ path: 'name', code: 'unknown' }]);
  const occurredAt = Date.parse(envelope.data.occurredAt);
  const age = receivedAt.getTime() - occurredAt;
  // A clock far ahead or an event from long ago would land in windows it never happened in.
  if (age < -LIMITS.analytics.futureSkewMaxMs || age > LIMITS.analytics.occurredAgeMaxMs) {
    return refuse('implausible-time', [{ path: 'occurredAt', code: age < 0 ? 'future' : 'too-old' }]);
  }
  const identity = identityRefusal(envelope.data, caller);
  if (identity) return refuse(identity, [{ path: 'userId', code: identity }]);

  const schema = ANALYTICS_EVENTS[name].properties;
  const properties = acceptOrParse(schema, ACCEPT_PROPERTIES.get(name) ?? null, envelope.data.properties);
  if (!properties.success) {
    const unknownKey = properties.error.issues.some((issue) => issue.code === 'unrecognized_keys');
    return refuse(unknownKey ? 'unknown-property' : 'invalid-property', issuesOf(properties.error));
  }
  if (name === EXPOSURE_EVENT) {
    const refusal = exposureRefusal(properties.data as { experimentKey: string; variant: string }, experiments);
    if (refusal) return refuse('unknown-experiment', [refusal]);
  }
  const { eventId, occurredAt: _at, anonymousId, userId, properties: _, ...rest } = envelope.data;
  return {
    kind: 'event',
    doc: {
      _id: new ObjectId(),
      ...rest,
      eventId: eventId.toLowerCase(),
      name,
      occurredAt: new Date(occurredAt),
      receivedAt,
      userId: userId ? caller : null,
      anonymousId: anonymousId ?? null,
      // Kept apart from userId: an event queued before sign-in stays anonymous, yet the data-quality
      // figure must see a signed-in client that forgets the userId (worker/growth/dashboard/pipelines.ts).
      authenticated: caller !== null,
      properties: properties.data as AnalyticsEventDoc['properties'],
    },
  };
}
