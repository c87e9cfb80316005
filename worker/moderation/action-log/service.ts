import { type Filter, ObjectId } from 'mongodb';
import { anyIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import type { ModerationTargetType, ModeratorAction, ModeratorActionDoc } from '../documents';

// Every query on the moderator action log. It is append-only: nothing here updates or deletes an entry (account
// deletion only detaches the ids, worker/moderation/personal-data.ts).

export interface ActionEntry {
  actorId: ObjectId;
  action: ModeratorAction;
  target: { type: ModerationTargetType; id?: ObjectId; text?: string };
  subjectId?: ObjectId;
  reason: string;
  details?: Record<string, unknown>;
}

/** Appends one action to the log: every moderator decision goes through here, after the decision is stored. */
export async function recordModeratorAction(store: Store, entry: ActionEntry): Promise<ModeratorActionDoc> {
  const now = new Date();
  const doc: ModeratorActionDoc = {
    _id: new ObjectId(),
    actorId: entry.actorId,
    action: entry.action,
    target: entry.target,
    ...(entry.subjectId ? { subjectId: entry.subjectId } : {}),
    reason: entry.reason,
    ...(entry.details ? { details: entry.details } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await store.moderator_actions.insertOne(doc);
  return doc;
}

/** A page of the log, newest first (`limit + 1` rows for the pager); with `subjectId`, only actions about that rider. */
export function listModeratorActions(
  store: Store,
  page: { limit: number; cursor?: ObjectId; subjectId?: ObjectId; action?: ModeratorAction },
) {
  const filter: Filter<ModeratorActionDoc> = {
    ...idPageFilter(page.cursor),
    ...(page.subjectId ? { subjectId: anyIdOf(page.subjectId) } : {}),
    ...(page.action ? { action: page.action } : {}),
  };
  return store.moderator_actions
    .find(filter)
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

/** The actions a rider reads about themselves: what was done to their content or account, never a dismissed report. */
export const ACTIONS_A_RIDER_READS: readonly ModeratorAction[] = ['content.remove', 'rider.suspend', 'rider.lift'];

/** A page of the decisions about one rider that they may read, newest first (`limit + 1` rows for the pager). */
export function listOwnModeration(store: Store, subjectId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.moderator_actions
    .find({ subjectId: anyIdOf(subjectId), action: { $in: [...ACTIONS_A_RIDER_READS] }, ...idPageFilter(page.cursor) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}
