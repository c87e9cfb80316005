import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { linkedSpotId } from '../catalog/spot-link';
import type { EventDoc } from '../documents';
import { readEvents } from '../stored-event';
import { baseDedupeKey, looksLikeSameEvent } from './duplicates';

// Every query of community submissions.

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Stored events the submission looks like (worker/events/submissions/duplicates.ts): one read of
 * the events on its UTC day (the startAt index) plus those holding its dedupe key; merged-away
 * and rejected events are not candidates.
 */
export async function possibleDuplicates(store: Store, doc: EventDoc): Promise<ObjectId[]> {
  const key = baseDedupeKey(doc.dedupeKey);
  const start = doc.startAt ?? null;
  const day = start ? new Date(Math.floor(start.getTime() / DAY_MS) * DAY_MS) : null;
  const near = readEvents(
    await store.events
      .find(
        {
          _id: { $ne: doc._id },
          approvalStatus: { $ne: 'rejected' },
          mergedInto: { $exists: false },
          $or: [
            { dedupeKey: key },
            ...(day ? [{ startAt: { $gte: day, $lt: new Date(day.getTime() + DAY_MS) } }] : []),
          ],
        },
        { projection: { dedupeKey: 1, title: 1, startAt: 1, 'venue.city': 1 } },
      )
      .limit(500)
      .toArray(),
  );
  const mine = { dedupeKey: doc.dedupeKey, title: doc.title, startAt: start, city: doc.venue?.city };
  return near
    .filter((event) =>
      looksLikeSameEvent(mine, {
        dedupeKey: event.dedupeKey,
        title: event.title,
        startAt: event.startAt,
        city: event.venue?.city,
      }),
    )
    .map((event) => event._id);
}

/** Stores the submission with its spot link and possible duplicates; answers what was stored. */
export async function storeSubmission(store: Store, doc: EventDoc): Promise<EventDoc> {
  const venue = doc.venue?.location ? { ...doc.venue, spotId: await linkedSpotId(store, doc.venue) } : doc.venue;
  const stored = { ...doc, venue, possibleDuplicateOf: await possibleDuplicates(store, doc) };
  await store.events.insertOne(stored);
  return stored;
}
