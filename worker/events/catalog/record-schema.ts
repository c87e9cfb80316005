import { z } from '@hono/zod-openapi';
import { APPROVAL_STATUSES, EVENT_RELATIONSHIPS, TARGET_LEVELS, TARGET_REGISTRATION_STATUSES } from './vocabulary';

// The target shape (the interface spec, "Event (Planned target model)"), answered only
// to a client asking with `?view=target`; everyone else keeps the Live shape (worker/events/catalog/schema.ts).

const text = z.string().nullable();
const when = z.string().nullable().describe('ISO 8601 UTC; null when absent');
const texts = z.array(z.string());

const Point = z
  .object({
    type: z.literal('Point'),
    coordinates: z.tuple([z.number(), z.number()]).describe('[longitude, latitude]'),
  })
  .openapi('GeoPoint');

const SourceRef = z
  .object({
    sourceId: text.describe('the source (eventSources._id)'),
    externalId: text.describe("the source's own id of the listing"),
    url: text,
    sourceUpdatedAt: when,
    fetchedAt: when.describe('when this payload was first read'),
    payloadHash: text.describe('hash of the raw upstream record (eventSourceRecords)'),
  })
  .openapi('EventSourceRef');

export const TargetEvent = z
  .object({
    _id: z.string(),
    slug: text,
    title: text,
    description: text,
    sports: texts,
    disciplines: texts,
    eventKinds: texts,
    intents: texts.describe('compete, spectate_in_person, spectate_online'),
    level: z.array(z.string()).describe(`any of ${TARGET_LEVELS.join(', ')}; invite-only is participation.inviteOnly`),
    startAt: when,
    endAt: when,
    timezone: text.describe('IANA zone of the venue; instants are UTC whatever it is; null when unknown'),
    timeTba: z.boolean().nullable(),
    status: text,
    isOnline: z.boolean().nullable(),
    schedule: z.array(z.object({ name: text, startAt: when, endAt: when })),
    venue: z
      .object({
        name: text,
        city: text,
        region: text,
        country: text,
        address: text,
        location: Point.nullable(),
        spotId: text.describe('a known spot within 150 m whose name agrees'),
      })
      .nullable(),
    organizer: z.object({ name: text, verified: z.boolean().nullable(), canonicalId: text, url: text }).nullable(),
    participation: z.object({
      registrationStatus: text.describe(`one of ${TARGET_REGISTRATION_STATUSES.join(', ')}, or null when unknown`),
      registrationOpensAt: when,
      registrationClosesAt: when,
      registrationUrl: text,
      priceText: text,
      divisions: texts,
      eligibilityText: text,
      inviteOnly: z.boolean().describe('entry by invitation only (the Live level "invite-only")'),
    }),
    spectating: z
      .object({
        inPerson: z.boolean().nullable(),
        ticketUrl: text,
        streamUrl: text,
        streamStatus: text,
        ticketPriceText: text,
        broadcaster: text,
      })
      .nullable(),
    image: text,
    series: text,
    resultsUrl: text,
    sourceRefs: z.array(SourceRef),
    sourceTrust: z.number().describe('0..1; conflicting listings resolve to the more trusted one'),
    freshness: z.object({ lastVerifiedAt: when, staleAfter: when, changedAt: when }),
    approvalStatus: z.enum(APPROVAL_STATUSES).describe('published means approved'),
    relationshipCounts: z.object(Object.fromEntries(EVENT_RELATIONSHIPS.map((r) => [r, z.number().int()]))),
    createdAt: when,
    updatedAt: when,
  })
  .openapi('TargetEvent');

export const TargetEventPage = z
  .object({ events: z.array(TargetEvent), nextCursor: z.string().nullable(), totalCount: z.number().int() })
  .openapi('TargetEventPage');

export const VIEW_FIELD = z
  .enum(['live', 'target'])
  .default('live')
  .describe('live (default): the Live shape existing clients read; target: the target model (TargetEvent)');

export const ViewQuery = z.object({ view: VIEW_FIELD });
