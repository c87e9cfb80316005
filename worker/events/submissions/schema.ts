import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';
import { EVENT_INTENTS, EVENT_SPORTS } from '../../platform/sports';
import { isTimeZone } from '../catalog/local-time';
import { TargetEvent } from '../catalog/record-schema';
import { TARGET_LEVELS, TARGET_REGISTRATION_STATUSES } from '../catalog/vocabulary';
import { conflictingForms } from './given-forms';

// The event fields a rider submits and an admin edits (worker/events/desk/):
// the target shape, validated field by field so a 400 names each bad field.

const { submitListMax: listMax, submitTextMax: textMax } = LIMITS.events;
const text = (max: number = textMax) => z.string().trim().min(1).max(max);
const url = z
  .string()
  .trim()
  .max(2000)
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL');
const list = <T extends z.ZodType>(item: T) => z.array(item).max(listMax);

/** `YYYY-MM-DDTHH:mm`, the wall-clock time at the venue; `timezone` turns it into UTC. */
export const LocalTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be YYYY-MM-DDTHH:mm, the local time at the venue')
  .describe('local wall-clock time at the venue, YYYY-MM-DDTHH:mm; stored as the UTC instant in `timezone`');

/** An ISO 8601 instant with its offset (`Z` or ±HH:mm): the target model's own form; without one it names no instant. */
export const Instant = z.iso
  .datetime({
    offset: true,
    error:
      'must be an ISO 8601 instant with an offset, YYYY-MM-DDTHH:mm:ss[.sss] then Z or ±HH:mm (2031-06-14T10:00:00-05:00)',
  })
  .describe(
    'ISO 8601 instant with an offset, YYYY-MM-DDTHH:mm:ss[.sss] then Z or ±HH:mm; stored as that UTC instant. A time without an offset is refused',
  );

export const TimeZone = z
  .string()
  .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
  .describe('IANA time zone of the venue');

const Venue = z
  .object({
    name: text().optional(),
    address: text().optional(),
    city: text(100).optional(),
    region: text(100).optional(),
    country: text(100).optional(),
    lat: z.number().min(-90).max(90).optional(),
    lng: z.number().min(-180).max(180).optional(),
    location: z
      .object({
        type: z.literal('Point'),
        coordinates: z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]),
      })
      .strict()
      .optional()
      .describe('GeoJSON Point, coordinates [longitude, latitude]: the stored form of lat/lng (give one or the other)'),
  })
  .strict()
  .refine((v) => (v.lat === undefined) === (v.lng === undefined), {
    message: 'lat and lng come together',
    path: ['lng'],
  });

const Organizer = z.object({ name: text(), url: url.optional() }).strict();

const Participation = z
  .object({
    registrationStatus: z.enum(TARGET_REGISTRATION_STATUSES).optional(),
    registrationOpensAt: z.iso.datetime({ offset: true }).optional(),
    registrationClosesAt: z.iso.datetime({ offset: true }).optional(),
    registrationUrl: url.optional(),
    priceText: text().optional(),
    divisions: list(text(100)).optional(),
    eligibilityText: text(1000).optional(),
    inviteOnly: z.boolean().optional(),
  })
  .strict();

const Spectating = z
  .object({
    inPerson: z.boolean().optional(),
    ticketUrl: url.optional(),
    streamUrl: url.optional(),
    ticketPriceText: text().optional(),
    broadcaster: text().optional(),
  })
  .strict();

/** A start is required in one of its forms; the other name is in the message. */
const startRequired = (at: { startAt?: string; startLocal?: string }, ctx: z.RefinementCtx) => {
  if (at.startAt === undefined && at.startLocal === undefined) {
    ctx.addIssue({ code: 'custom', path: ['startLocal'], message: 'is required (or startAt)' });
  }
};

const Session = z
  .object({
    name: text(),
    startLocal: LocalTime.optional(),
    endLocal: LocalTime.optional(),
    startAt: Instant.optional(),
    endAt: Instant.optional(),
  })
  .strict()
  .superRefine(startRequired);

/** Every field a submission or an edit may set; the submission adds what it requires. */
export const eventFields = {
  title: text(LIMITS.content.titleMax),
  description: z.string().trim().max(LIMITS.content.descriptionMax),
  sports: list(z.enum(EVENT_SPORTS)).min(1),
  disciplines: list(text(50)),
  eventKinds: list(text(50)),
  intents: list(z.enum(EVENT_INTENTS)),
  level: list(z.enum(TARGET_LEVELS)),
  startLocal: LocalTime,
  endLocal: LocalTime,
  startAt: Instant,
  endAt: Instant,
  timezone: TimeZone,
  timeTba: z.boolean(),
  isOnline: z.boolean(),
  schedule: list(Session).describe(
    'named sessions, each time as startLocal/endLocal in `timezone` or startAt/endAt with an offset',
  ),
  venue: Venue,
  organizer: Organizer,
  participation: Participation,
  spectating: Spectating,
  image: url,
  series: text(),
  resultsUrl: url,
  website: url.describe("the event's own page"),
};

/** Each fact given in both its forms (worker/events/submissions/given-forms.ts), as issues on the fields named. */
export function oneFormEach(body: Record<string, unknown>, ctx: z.RefinementCtx) {
  for (const { field, message } of conflictingForms(body))
    ctx.addIssue({ code: 'custom', path: field.split('.'), message });
}

/** Checks that need several fields: a start, a place unless online, one form each. The times are checked once converted. */
function submissionRules(
  body: { isOnline?: boolean; venue?: { city?: string }; startAt?: string; startLocal?: string; schedule?: unknown },
  ctx: z.RefinementCtx,
) {
  startRequired(body, ctx);
  if (body.isOnline !== true && !body.venue?.city) {
    ctx.addIssue({ code: 'custom', path: ['venue', 'city'], message: 'is required unless isOnline is true' });
  }
  oneFormEach(body, ctx);
}

/** The details a submission and a desk edit may each leave out: who runs the event, how to take part, where to read more. */
export const optionalEventDetails = {
  organizer: eventFields.organizer.optional(),
  participation: eventFields.participation.optional(),
  spectating: eventFields.spectating.optional(),
  image: eventFields.image.optional(),
  series: eventFields.series.optional(),
  resultsUrl: eventFields.resultsUrl.optional(),
  website: eventFields.website.optional(),
};

export const SubmitBody = z
  .object({
    title: eventFields.title,
    description: eventFields.description.optional(),
    sports: eventFields.sports,
    disciplines: eventFields.disciplines.optional(),
    eventKinds: eventFields.eventKinds.optional(),
    intents: eventFields.intents.optional(),
    level: eventFields.level.optional(),
    startLocal: eventFields.startLocal.optional().describe('the start as local time at the venue; or give startAt'),
    endLocal: eventFields.endLocal.optional(),
    startAt: eventFields.startAt.optional().describe('the start as an instant with an offset; or give startLocal'),
    endAt: eventFields.endAt.optional(),
    timezone: eventFields.timezone.describe(
      "IANA time zone of the venue: local times are read in it, and it stays the event's zone whichever form the times take",
    ),
    timeTba: eventFields.timeTba.optional(),
    isOnline: eventFields.isOnline.optional(),
    schedule: eventFields.schedule.optional(),
    venue: eventFields.venue.optional(),
    ...optionalEventDetails,
  })
  .strict()
  .superRefine(submissionRules)
  .openapi('EventSubmission');

export type SubmitInput = z.infer<typeof SubmitBody>;

export const SubmittedEvent = TargetEvent.extend({
  possibleDuplicateOf: z
    .array(z.string())
    .describe(
      'ids of stored events this one looks like (same dedupe key, or same UTC day and city with a near-identical title); for the reviewer',
    ),
}).openapi('SubmittedEvent');
