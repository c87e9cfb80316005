import type { EventSubscriptionDoc } from '../documents';

/** A subscription as read by worker/events/stored-subscription.ts (every field already of its type). */
export const eventSubscriptionView = (sub: EventSubscriptionDoc) => ({
  _id: sub._id.toHexString(),
  name: sub.name,
  sports: sub.sports,
  disciplines: sub.disciplines,
  eventKinds: sub.eventKinds,
  intents: sub.intents,
  level: sub.level,
  place: sub.place
    ? {
        lat: sub.place.location.coordinates[1],
        lng: sub.place.location.coordinates[0],
        radiusKm: sub.place.radiusKm,
        label: sub.place.label,
      }
    : null,
  organizerId: sub.organizerId?.toHexString() ?? null,
  lastDigestAt: sub.lastDigestAt?.toISOString() ?? null,
  createdAt: sub.createdAt.toISOString(),
  updatedAt: sub.updatedAt.toISOString(),
});
