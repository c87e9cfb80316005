import type { ObjectId } from 'mongodb';

// Stored shape of events (the interface spec, "Event (Live stored shape)"). The collection has
// no validator: every field may be absent or empty, so readers treat each one as optional.

export interface EventVenue {
  name?: string | null;
  city?: string | null;
  region?: string | null;
  country?: string | null;
  lat?: number | null;
  lng?: number | null;
}

export interface EventOrganizer {
  name?: string | null;
  verified?: boolean | null;
}

export interface EventSpectating {
  inPerson?: boolean | null;
  ticketUrl?: string | null;
  streamUrl?: string | null;
  streamStatus?: string | null;
}

export interface EventDoc {
  _id: ObjectId;
  slug: string;
  dedupeKey: string;
  title?: string | null;
  description?: string | null;
  sports?: string[] | null;
  startAt?: Date | null;
  endAt?: Date | null;
  /** Currently always null (the interface spec). */
  timezone?: string | null;
  timeTba?: boolean | null;
  status?: 'scheduled' | 'completed' | null;
  isOnline?: boolean | null;
  venue?: EventVenue | null;
  organizer?: EventOrganizer | null;
  /** Inner fields are not fixed by the interface spec. */
  participation?: Record<string, unknown> | null;
  spectating?: EventSpectating | null;
  image?: string | null;
  series?: string | null;
  resultsUrl?: string | null;
  source?: string | null;
  sourceId?: string | null;
  sourceUrl?: string | null;
  /** Second connector only. */
  disciplines?: string[] | null;
  eventKinds?: string[] | null;
  intents?: string[] | null;
  level?: string[] | string | null;
  sourceTrust?: number | null;
  /** Hash of the content fields as last ingested (worker/ingestion/event-record.ts): an identical sighting only touches lastSeenAt. */
  contentHash?: string | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
  lastSeenAt?: Date | null;
}

/** Ids stored as strings, as the Live events feature keeps them. */
export interface EventSaveDoc {
  _id: ObjectId;
  userId: string;
  eventId: string;
  createdAt: Date;
}
