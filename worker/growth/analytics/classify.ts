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
const ACCEPT_ENVELOPE_ANY = fastAcceptor(ENVELOPE_FIELDS_ANY);
/** The envelope fields an event keeps as sent, in the schema's order; the rest are set by name below. */
const KEPT_AS_SENT = Object.keys(EnvelopeFields.shape).filter(
  (key) => !['eventId', 'name', 'occurredAt', 'anonymousId', 'userId', 'properties'].includes(key),
);
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
  const fields = acceptOrParse(ENVELOPE_FIELDS_ANY, ACCEPT_ENVELOPE_ANY, raw);
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
  // No closure per envelope: this runs for every event of every batch.
  if (raw.schemaVersion !== LIMITS.analytics.schemaVersion) {
    return quarantine(raw, 'unknown-schema-version', [{ path: 'schemaVersion', code: 'unknown' }], caller, receivedAt);
  }
  const envelope = acceptOrParse(EnvelopeFields, ACCEPT_ENVELOPE, input);
  if (!envelope.success) return quarantine(raw, 'invalid-envelope', issuesOf(envelope.error), caller, receivedAt);
  const data = envelope.data;
  const { name } = data;
  if (!isAnalyticsEventName(name)) {
    return quarantine(raw, 'unknown-name', [{ path: 'name', code: 'unknown' }], caller, receivedAt);
  }
  const occurredAt = Date.parse(data.occurredAt);
  const age = receivedAt.getTime() - occurredAt;
  // A clock far ahead or an event from long ago would land in windows it never happened in.
  if (age < -LIMITS.analytics.futureSkewMaxMs || age > LIMITS.analytics.occurredAgeMaxMs) {
    const issues = [{ path: 'occurredAt', code: age < 0 ? 'future' : 'too-old' }];
    return quarantine(raw, 'implausible-time', issues, caller, receivedAt);
  }
  const identity = identityRefusal(data, caller);
  if (identity) return quarantine(raw, identity, [{ path: 'userId', code: identity }], caller, receivedAt);

  const schema = ANALYTICS_EVENTS[name].properties;
  const properties = acceptOrParse(schema, ACCEPT_PROPERTIES.get(name) ?? null, data.properties);
  if (!properties.success) {
    const unknownKey = properties.error.issues.some((issue) => issue.code === 'unrecognized_keys');
    const reason = unknownKey ? 'unknown-property' : 'invalid-property';
    return quarantine(raw, reason, issuesOf(properties.error), caller, receivedAt);
  }
  if (name === EXPOSURE_EVENT) {
    const refusal = exposureRefusal(properties.data as { experimentKey: string; variant: string }, experiments);
    if (refusal) return quarantine(raw, 'unknown-experiment', [refusal], caller, receivedAt);
  }
  // Built field by field in the stored order (_id, the fields kept as sent, then the server's), not by object rest.
  const doc: Record<string, unknown> = { _id: new ObjectId(), name };
  for (const key of KEPT_AS_SENT) if (key in data) doc[key] = data[key as keyof EnvelopeFields];
  doc.eventId = data.eventId.toLowerCase();
  doc.occurredAt = new Date(occurredAt);
  doc.receivedAt = receivedAt;
  doc.userId = data.userId ? caller : null;
  doc.anonymousId = data.anonymousId ?? null;
  // Kept apart from userId: an event queued before sign-in stays anonymous, yet the data-quality
  // figure must see a signed-in client that forgets the userId (worker/growth/dashboard/pipelines.ts).
  doc.authenticated = caller !== null;
  doc.properties = properties.data;
  return { kind: 'event', doc: doc as unknown as AnalyticsEventDoc };
}
