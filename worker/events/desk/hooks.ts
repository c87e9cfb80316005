import type { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { recordEventChanges } from '../changes/record';
import type { EventDoc } from '../documents';
import { onEventPublished } from '../subscriptions/match';

// The desk's two calls into change history and subscriptions: the one
// call site of each.

/** An admin edit: material changes go to eventChangeLog and notify riders, with the admin as `by`. */
export async function afterAdminEdit(store: Store, change: { before: EventDoc; after: EventDoc; by: ObjectId }) {
  await recordEventChanges(store, { before: change.before, after: change.after, by: change.by.toHexString() });
}

/** An event newly approved (published): matched against event subscriptions (one digest each). */
export async function afterApproved(store: Store, event: EventDoc) {
  await onEventPublished(store, event);
}
