import type { ObjectId } from 'mongodb';
import type { EventDoc } from '../db/event-documents';
import type { Store } from '../db/store';

// The desk's two calls into change history and subscriptions (issue 16, items 4 and 6, built on
// branch events-notify): the one call site of each.

/** An admin edit: material changes go to eventChangeLog and notify riders, with the admin as `by`. */
export async function afterAdminEdit(_store: Store, _change: { before: EventDoc; after: EventDoc; by: ObjectId }) {
  // PENDING events-notify: recordEventChanges(store, { before, after, by }) from worker/event-changes/record.ts.
}

/** An event newly approved (published): matched against event subscriptions. */
export async function afterApproved(_store: Store, _event: EventDoc) {
  // PENDING events-notify: onEventPublished(store, event) from worker/event-subscriptions/match.ts.
}
