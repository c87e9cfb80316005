import { z } from '@hono/zod-openapi';
import { IdString, pathId } from '../../platform/http/ids';
import { PageQuery, pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { EVENT_INTENTS, EVENT_SPORTS } from '../../platform/sports';
import { TARGET_LEVELS } from '../catalog/vocabulary';

const L = LIMITS.eventNotifications;

const text = z.string().trim().min(1).max(L.textMax);
const values = <T extends z.ZodType>(item: T) =>
  z.array(item).max(L.filterValuesMax).describe(`any one of up to ${L.filterValuesMax}; empty or absent: any`);

const Place = z
  .object({
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    radiusKm: z.number().min(L.radiusKmMin).max(L.radiusKmMax).describe('events whose venue is within this distance'),
    label: text.nullable().optional().describe('how the app names the place, e.g. "Austin"'),
  })
  .strict();

const criteria = {
  sports: values(z.enum(EVENT_SPORTS)),
  disciplines: values(text).describe('matched case-insensitively against the event’s disciplines'),
  eventKinds: values(text).describe('matched case-insensitively against the event’s eventKinds'),
  intents: values(z.enum(EVENT_INTENTS)),
  level: values(z.enum(TARGET_LEVELS)),
  place: Place.nullable(),
  organizerId: IdString.nullable().describe('a canonical organizer (organizer.canonicalId of events)'),
};
export const CRITERIA = ['sports', 'disciplines', 'eventKinds', 'intents', 'level', 'place', 'organizerId'] as const;
export type Criterion = (typeof CRITERIA)[number];

const Fields = z.object({ name: text.nullable(), ...criteria });

export const NEEDS_A_CRITERION = `a subscription needs at least one of ${CRITERIA.join(', ')}`;

/** POST body: every criterion optional, at least one given; unknown fields are refused by name. */
export const NewEventSubscription = Fields.partial()
  .strict()
  .openapi('NewEventSubscription', {
    description: `Matches an event when every criterion it sets holds (within a list, any one value). ${NEEDS_A_CRITERION}.`,
  });

/** PATCH body: any subset of the fields; a criterion set to [] or null is removed (one must remain). */
export const EventSubscriptionChanges = Fields.partial().strict().openapi('EventSubscriptionChanges');

export type SubscriptionInput = z.infer<typeof NewEventSubscription>;

export const SubscriptionParam = z.object({ id: pathId('id') });

export const EventSubscription = z
  .object({
    _id: z.string(),
    name: z.string().nullable(),
    sports: z.array(z.string()),
    disciplines: z.array(z.string()),
    eventKinds: z.array(z.string()),
    intents: z.array(z.string()),
    level: z.array(z.string()),
    place: z
      .object({ lat: z.number(), lng: z.number(), radiusKm: z.number(), label: z.string().nullable() })
      .nullable(),
    organizerId: z.string().nullable(),
    lastDigestAt: z.string().nullable().describe('when its last digest was sent: at most one per rolling 24 hours'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('EventSubscription');

export const EventSubscriptionPage = pageOf(EventSubscription).openapi('EventSubscriptionPage');
export const SubscriptionPageQuery = PageQuery;

export const DeletedEventSubscription = z
  .object({ deleted: z.literal(true), id: z.string() })
  .openapi('DeletedEventSubscription');
