import { ObjectId } from 'mongodb';
import { recordServerEvent } from '../../growth/analytics/server-events';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { idForms } from '../../platform/db/stored-values';
import { findEventById } from '../catalog/service';

// Every query on event saves: ids stored as strings (the interface spec, "Event save"), one row
// per rider and event (a unique index). Older code also stored them as ObjectIds: every query
// matches both forms, and new rows are written as strings.

/** Either form of a hex id, for a query on a field older code may have stored as an ObjectId. */
const eitherForm = (hex: string) => ({ $in: idForms(new ObjectId(hex)) as unknown as string[] });

/** Saves the event for the rider (idempotent); 'not-found' when there is no such event. */
export async function saveEvent(store: Store, eventId: ObjectId, userId: string): Promise<'saved' | 'not-found'> {
  if (!(await findEventById(store, eventId))) return 'not-found';
  const key = { userId, eventId: eventId.toHexString() };
  const either = { userId: eitherForm(key.userId), eventId: eitherForm(key.eventId) };
  // Two saves at once: the unique index lets one insert, and the other finds it saved.
  const created = await onDuplicateKey(
    async () =>
      (await store.event_saves.updateOne(either, { $setOnInsert: { ...key, createdAt: new Date() } }, { upsert: true }))
        .upsertedCount > 0,
    () => false,
  );
  if (created) await recordServerEvent(store, new ObjectId(userId), 'event_saved', { eventId: key.eventId });
  return 'saved';
}

/** Unsaves the event (idempotent, also for an event that is gone, so a client can drop a stale save). */
export async function unsaveEvent(store: Store, eventId: ObjectId, userId: string): Promise<void> {
  await store.event_saves.deleteMany({ userId: eitherForm(userId), eventId: eitherForm(eventId.toHexString()) });
}

/** A page of the rider's saves, newest saved first (`limit + 1` rows for the pager). */
export function listEventSaves(store: Store, userId: string, page: { limit: number; cursor?: ObjectId }) {
  return store.event_saves
    .find({ userId: eitherForm(userId), ...(page.cursor ? { _id: { $lt: page.cursor } } : {}) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}
