import type { EventDoc } from '../documents';
import {
  DEFAULT_SOURCE_TRUST,
  EVENT_SCHEMA_VERSION,
  NO_RELATIONSHIP_COUNTS,
  STALE_AFTER_MS,
  TARGET_LEVELS,
  TARGET_REGISTRATION_STATUSES,
} from './vocabulary';

// One stored record (Live or already target) → the target shape. Pure and
// idempotent: the migration (worker/events/catalog/migration.ts) and ingestion both use it, and a target
// document comes out unchanged. What each Live field becomes: migrations-notes/events-target-model.md.

type Loose = Record<string, unknown>;

const obj = (value: unknown): Loose | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)
    ? (value as Loose)
    : null;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const date = (value: unknown): Date | null => (value instanceof Date && !Number.isNaN(value.getTime()) ? value : null);
const list = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];

/** The participation fields the target model names; any other stored key is kept beside them. */
export const PARTICIPATION_FIELDS = [
  'registrationStatus',
  'registrationOpensAt',
  'registrationClosesAt',
  'registrationUrl',
  'priceText',
  'divisions',
  'eligibilityText',
  'inviteOnly',
] as const;

/** A GeoJSON Point from numeric lat/lng in range, else null. */
export function pointOf(lat: unknown, lng: unknown): { type: 'Point'; coordinates: [number, number] } | null {
  const [y, x] = [num(lat), num(lng)];
  if (y === null || x === null || Math.abs(y) > 90 || Math.abs(x) > 180) return null;
  return { type: 'Point', coordinates: [x, y] };
}

function levelAndInvite(level: unknown, participation: Loose | null) {
  const values = list(level);
  const inviteOnly = values.includes('invite-only') || participation?.inviteOnly === true;
  return { level: values.filter((v) => (TARGET_LEVELS as readonly string[]).includes(v)), inviteOnly };
}

function participationOf(stored: Loose | null, inviteOnly: boolean): Loose {
  const p = stored ?? {};
  const status = str(p.registrationStatus);
  return {
    ...p,
    registrationStatus: status && (TARGET_REGISTRATION_STATUSES as readonly string[]).includes(status) ? status : null,
    registrationOpensAt: date(p.registrationOpensAt),
    registrationClosesAt: date(p.registrationClosesAt),
    registrationUrl: str(p.registrationUrl),
    priceText: str(p.priceText),
    divisions: list(p.divisions),
    eligibilityText: str(p.eligibilityText),
    inviteOnly,
  };
}

function sourceRefsOf(e: Loose) {
  if (Array.isArray(e.sourceRefs)) return e.sourceRefs;
  const sourceId = str(e.source);
  if (!sourceId) return [];
  return [
    {
      sourceId,
      externalId: str(e.sourceId),
      url: str(e.sourceUrl),
      sourceUpdatedAt: null,
      fetchedAt: date(e.lastSeenAt) ?? date(e.updatedAt),
      payloadHash: str(e.contentHash),
    },
  ];
}

/** The target shape of a stored event; every Live field stays where the Live view reads it. */
export function toTargetShape(doc: EventDoc): EventDoc {
  const e = doc as unknown as Loose;
  const storedParticipation = obj(e.participation);
  const { level, inviteOnly } = levelAndInvite(e.level, storedParticipation);
  const venue = obj(e.venue);
  const organizer = obj(e.organizer);
  const spectating = obj(e.spectating);
  const freshness = obj(e.freshness);
  const verified = date(freshness?.lastVerifiedAt) ?? date(e.lastSeenAt) ?? date(e.updatedAt);
  const counts = obj(e.relationshipCounts);
  const target: Loose = {
    ...e,
    disciplines: list(e.disciplines),
    eventKinds: list(e.eventKinds),
    intents: list(e.intents),
    level,
    schedule: Array.isArray(e.schedule) ? e.schedule : [],
    timezone: str(e.timezone),
    venue: venue
      ? {
          ...venue,
          address: str(venue.address),
          location: obj(venue.location) ?? pointOf(venue.lat, venue.lng),
          spotId: venue.spotId ?? null,
        }
      : null,
    organizer: organizer ? { ...organizer, canonicalId: organizer.canonicalId ?? null, url: str(organizer.url) } : null,
    participation: participationOf(storedParticipation, inviteOnly),
    spectating: spectating
      ? { ...spectating, ticketPriceText: str(spectating.ticketPriceText), broadcaster: str(spectating.broadcaster) }
      : null,
    sourceRefs: sourceRefsOf(e),
    sourceTrust: num(e.sourceTrust) ?? DEFAULT_SOURCE_TRUST,
    freshness: {
      lastVerifiedAt: verified,
      staleAfter: date(freshness?.staleAfter) ?? (verified ? new Date(verified.getTime() + STALE_AFTER_MS) : null),
      changedAt: date(freshness?.changedAt),
    },
    // Stored Live records were published, so they migrate as approved.
    approvalStatus: str(e.approvalStatus) ?? 'approved',
    relationshipCounts: { ...NO_RELATIONSHIP_COUNTS, ...(counts ?? {}) },
    schemaVersion: EVENT_SCHEMA_VERSION,
  };
  return target as unknown as EventDoc;
}
