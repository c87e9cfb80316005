import type { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import type { EventDoc } from '../documents';
import type { TargetEvent } from './record-schema';
import { toTargetShape } from './record-upgrade';
import { storedDate, strings } from './views';
import { APPROVAL_STATUSES, EVENT_RELATIONSHIPS, EVENT_SCHEMA_VERSION } from './vocabulary';

// Stored event → the target shape's JSON (`?view=target`). A Live record not yet migrated is
// shaped in memory the way the migration would store it.

type Loose = Record<string, unknown>;
const obj = (value: unknown): Loose => (typeof value === 'object' && value !== null ? (value as Loose) : {});
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
const iso = (value: unknown) => storedDate(value)?.toISOString() ?? null;
const id = (value: unknown) => (value instanceof ObjectId ? value.toHexString() : str(value));

function locationOf(value: unknown) {
  const point = obj(value);
  const coordinates = point.coordinates;
  return point.type === 'Point' && Array.isArray(coordinates) && coordinates.length === 2
    ? { type: 'Point' as const, coordinates: [Number(coordinates[0]), Number(coordinates[1])] as [number, number] }
    : null;
}

export function targetEventView(doc: EventDoc): z.infer<typeof TargetEvent> {
  const e = (doc.schemaVersion === EVENT_SCHEMA_VERSION ? doc : toTargetShape(doc)) as unknown as Loose;
  const venue = e.venue ? obj(e.venue) : null;
  const organizer = e.organizer ? obj(e.organizer) : null;
  const spectating = e.spectating ? obj(e.spectating) : null;
  const p = obj(e.participation);
  const freshness = obj(e.freshness);
  const counts = obj(e.relationshipCounts);
  const approval = APPROVAL_STATUSES.find((status) => status === e.approvalStatus) ?? 'approved';
  return {
    _id: id(e._id) ?? '',
    slug: str(e.slug) || null,
    title: str(e.title),
    description: str(e.description),
    sports: strings(e.sports),
    disciplines: strings(e.disciplines),
    eventKinds: strings(e.eventKinds),
    intents: strings(e.intents),
    level: strings(e.level),
    startAt: iso(e.startAt),
    endAt: iso(e.endAt),
    timezone: str(e.timezone),
    timeTba: bool(e.timeTba),
    status: str(e.status),
    isOnline: bool(e.isOnline),
    schedule: (Array.isArray(e.schedule) ? e.schedule : []).map((session) => {
      const s = obj(session);
      return { name: str(s.name), startAt: iso(s.startAt), endAt: iso(s.endAt) };
    }),
    venue: venue && {
      name: str(venue.name),
      city: str(venue.city),
      region: str(venue.region),
      country: str(venue.country),
      address: str(venue.address),
      location: locationOf(venue.location),
      spotId: id(venue.spotId),
    },
    organizer: organizer && {
      name: str(organizer.name),
      verified: bool(organizer.verified),
      canonicalId: id(organizer.canonicalId),
      url: str(organizer.url),
    },
    participation: {
      registrationStatus: str(p.registrationStatus),
      registrationOpensAt: iso(p.registrationOpensAt),
      registrationClosesAt: iso(p.registrationClosesAt),
      registrationUrl: str(p.registrationUrl),
      priceText: str(p.priceText),
      divisions: strings(p.divisions),
      eligibilityText: str(p.eligibilityText),
      inviteOnly: p.inviteOnly === true,
    },
    spectating: spectating && {
      inPerson: bool(spectating.inPerson),
      ticketUrl: str(spectating.ticketUrl),
      streamUrl: str(spectating.streamUrl),
      streamStatus: str(spectating.streamStatus),
      ticketPriceText: str(spectating.ticketPriceText),
      broadcaster: str(spectating.broadcaster),
    },
    image: str(e.image),
    series: str(e.series),
    resultsUrl: str(e.resultsUrl),
    sourceRefs: (Array.isArray(e.sourceRefs) ? e.sourceRefs : []).map((ref) => {
      const r = obj(ref);
      return {
        sourceId: str(r.sourceId),
        externalId: str(r.externalId),
        url: str(r.url),
        sourceUpdatedAt: iso(r.sourceUpdatedAt),
        fetchedAt: iso(r.fetchedAt),
        payloadHash: str(r.payloadHash),
      };
    }),
    sourceTrust: typeof e.sourceTrust === 'number' ? e.sourceTrust : 0,
    freshness: {
      lastVerifiedAt: iso(freshness.lastVerifiedAt),
      staleAfter: iso(freshness.staleAfter),
      changedAt: iso(freshness.changedAt),
    },
    approvalStatus: approval,
    relationshipCounts: Object.fromEntries(
      EVENT_RELATIONSHIPS.map((r) => [r, typeof counts[r] === 'number' ? Math.max(0, counts[r] as number) : 0]),
    ) as Record<(typeof EVENT_RELATIONSHIPS)[number], number>,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}
