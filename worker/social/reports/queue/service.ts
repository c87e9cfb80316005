import type { Document, ObjectId } from 'mongodb';
import { recordModeratorAction } from '../../../moderation/action-log/service';
import { anyIdOf } from '../../../platform/db/id-match';
import type { Store } from '../../../platform/db/store';
import { LIMITS } from '../../../platform/limits';
import { deleteComment } from '../../comments/service';
import type { ReportTargetType } from '../../documents';
import { removePost } from '../../feed/removal';
import { releaseWithheld } from '../withholding';
import type { ItemDecision, QueueAction } from './item';
import { authorOf } from './targets';

// The admins' queue: open reports grouped by target, one item per post, comment or rider, answered as a whole.

const HOUR_MS = 60 * 60 * 1000;

/** One stored report with a rider behind it (a model's report has none, nor one whose rider deleted their account). */
const HAS_RIDER = { $ifNull: ['$reporterId', false] };

/** Open reports grouped by target, most distinct riders first, then the oldest. */
export function openItems(store: Store, limit: number): Promise<Document[]> {
  return store.reports
    .aggregate([
      { $match: { status: 'open' } },
      {
        $group: {
          _id: { targetType: '$targetType', targetId: '$targetId' },
          reports: { $sum: 1 },
          // One open report per rider and target (a unique index): counting them counts distinct riders.
          riders: { $sum: { $cond: [HAS_RIDER, 1, 0] } },
          reporterIds: { $push: '$reporterId' },
          postId: { $max: '$postId' },
          firstAt: { $min: '$createdAt' },
          lastAt: { $max: '$createdAt' },
          reasons: { $push: '$reason' },
          notes: { $push: '$note' },
          categories: { $push: '$categories' },
          fromModel: { $max: { $cond: [{ $eq: ['$source', 'model'] }, 1, 0] } },
        },
      },
      { $sort: { riders: -1, firstAt: 1, '_id.targetId': 1 } },
      { $limit: limit },
    ])
    .toArray();
}

/** How many items are open, how many of them are older than `agedBefore`, and when the oldest was first reported. */
export async function openItemFigures(store: Store, agedBefore: Date) {
  const notYet = new Date(agedBefore.getTime() + 1);
  const [row] = await store.reports
    .aggregate([
      { $match: { status: 'open' } },
      { $group: { _id: { targetType: '$targetType', targetId: '$targetId' }, firstAt: { $min: '$createdAt' } } },
      {
        $group: {
          _id: null,
          items: { $sum: 1 },
          // An item whose reports carry no date reads as reported now, as the queue shows it: not aged.
          aged: { $sum: { $cond: [{ $lte: [{ $ifNull: ['$firstAt', notYet] }, agedBefore] }, 1, 0] } },
          oldestAt: { $min: '$firstAt' },
        },
      },
    ])
    .toArray();
  return row;
}

/** The aged items themselves, oldest first: the cron run names each in an event line. */
export function agedItems(store: Store, agedBefore: Date, limit: number): Promise<Document[]> {
  return store.reports
    .aggregate([
      { $match: { status: 'open' } },
      {
        $group: {
          _id: { targetType: '$targetType', targetId: '$targetId' },
          firstAt: { $min: '$createdAt' },
          riders: { $sum: { $cond: [HAS_RIDER, 1, 0] } },
        },
      },
      { $match: { firstAt: { $lte: agedBefore } } },
      { $sort: { firstAt: 1 } },
      { $limit: limit },
    ])
    .toArray();
}

/**
 * Of the items decided since `since`, how many were decided within `LIMITS.report.answeredWithinHours` of their
 * first report. An item's reports are resolved in one update with one `resolvedAt`, so grouping the resolved
 * reports by target and that time finds each decision again.
 */
export async function answeredFigures(store: Store, since: Date) {
  const within = LIMITS.report.answeredWithinHours * HOUR_MS;
  const [row] = await store.reports
    .aggregate([
      { $match: { status: 'resolved', resolvedAt: { $gte: since } } },
      {
        $group: {
          _id: { targetType: '$targetType', targetId: '$targetId', resolvedAt: '$resolvedAt' },
          firstAt: { $min: '$createdAt' },
        },
      },
      {
        $group: {
          _id: null,
          items: { $sum: 1 },
          within: { $sum: { $cond: [{ $gte: ['$firstAt', { $subtract: ['$_id.resolvedAt', within] }] }, 1, 0] } },
        },
      },
    ])
    .toArray();
  return row;
}

/**
 * Decides a whole item: every open report of the target is resolved in one update, which also decides between two
 * admins acting at once (the one whose update resolved nothing is answered `resolved-already`). `remove` then removes
 * the post or comment through its own services; `dismiss` lifts the target's hold. A rider is never removed here.
 * The decision goes to the moderator action log with the admin's reason.
 */
export async function decideItem(
  store: Store,
  target: { type: ReportTargetType; id: ObjectId },
  decision: { action: QueueAction; reason: string },
  adminId: ObjectId,
  now = new Date(),
): Promise<ItemDecision | 'not-found' | 'resolved-already' | 'not-removable'> {
  if (decision.action === 'remove' && target.type === 'user') return 'not-removable';
  // Read before removing: the removal deletes the content and its author with it.
  const author = await authorOf(store, target.type, target.id);
  const onTarget = { targetType: target.type, targetId: anyIdOf(target.id) };
  const resolution = {
    status: 'resolved' as const,
    action: decision.action,
    resolvedBy: adminId,
    resolvedAt: now,
    updatedAt: now,
  };
  const claimed = await store.reports.updateMany({ ...onTarget, status: 'open' }, { $set: resolution });
  if (claimed.modifiedCount === 0) {
    const reported = await store.reports.countDocuments(onTarget, { limit: 1 });
    return reported ? 'resolved-already' : 'not-found';
  }
  if (decision.action === 'remove') {
    const caller = { userId: adminId, isAdmin: true };
    // Content already gone (removed by its author meanwhile) leaves nothing to remove.
    if (target.type === 'post') await removePost(store, target.id, caller, 'hide');
    if (target.type === 'comment' && author?.postId) await deleteComment(store, author.postId, target.id, caller);
    // A report filed between the claim and the removal names content that is gone: it is answered with the rest.
    await store.reports.updateMany({ ...onTarget, status: 'open' }, { $set: resolution });
  } else {
    await releaseWithheld(store, target.type, target.id);
  }
  const subjectId = author?.userId;
  await recordModeratorAction(store, {
    actorId: adminId,
    action: decision.action === 'remove' ? 'content.remove' : 'report.dismiss',
    target: { type: target.type, id: target.id },
    ...(subjectId ? { subjectId } : {}),
    reason: decision.reason,
    details: { reports: claimed.modifiedCount },
  });
  return {
    targetType: target.type,
    targetId: target.id,
    action: decision.action,
    ...(subjectId ? { subjectId } : {}),
    reports: claimed.modifiedCount,
  };
}
