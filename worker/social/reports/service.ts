import { ObjectId } from 'mongodb';
import { accountExists } from '../../accounts/users/service';
import { recordModeratorAction } from '../../moderation/action-log/service';
import { onDuplicateKey } from '../../platform/db/errors';
import { anyIdOf } from '../../platform/db/id-match';
import { idPageFilter } from '../../platform/db/id-page';
import type { Store } from '../../platform/db/store';
import { readOne, sameId } from '../../platform/db/stored-values';
import { deleteComment, postOfComment } from '../comments/service';
import type { ReportDoc, ReportReason, ReportTargetType } from '../documents';
import { removePost } from '../feed/removal';
import { postExists } from '../feed/service';
import { type Report, readReport } from '../stored-moderation';
import { authorOf } from './queue/targets';
import { withholdIfReported } from './withholding';

// Every query on reports. One open report per reporter and target: a partial unique index decides.

export type NewReportFields = { targetType: ReportTargetType; targetId: ObjectId; reason: ReportReason; note?: string };

/** Where the target lives: `{}` for posts and users, the post for a comment; 'not-found' when it is gone. */
async function locate(
  store: Store,
  type: ReportTargetType,
  id: ObjectId,
): Promise<{ postId?: ObjectId } | 'not-found'> {
  if (type === 'post') return (await postExists(store, id)) ? {} : 'not-found';
  if (type === 'user') return (await accountExists(store, id)) ? {} : 'not-found';
  const postId = await postOfComment(store, id);
  return postId ? { postId } : 'not-found';
}

/** Files a report, or finds the reporter's open one on the same target (then `created` is false). */
export async function fileReport(
  store: Store,
  reporterId: ObjectId,
  fields: NewReportFields,
): Promise<{ report: Report; created: boolean } | 'not-found'> {
  const where = await locate(store, fields.targetType, fields.targetId);
  if (where === 'not-found') return 'not-found';
  const now = new Date();
  const { note, ...target } = fields;
  const _id = new ObjectId();
  const insert = {
    reporterId,
    ...target,
    ...(note ? { note } : {}),
    ...where,
    status: 'open' as const,
    createdAt: now,
    updatedAt: now,
  };
  const write = () =>
    store.reports.findOneAndUpdate(
      { reporterId, targetType: fields.targetType, targetId: fields.targetId, status: 'open' },
      { $setOnInsert: { _id, ...insert } },
      { upsert: true, returnDocument: 'after' },
    );
  // The same report filed twice at once: the other insert won the unique index; this one finds it.
  const stored = await onDuplicateKey(write, write);
  // The one found is matched on this service's own fields, so it reads; an unusable one is refused as gone.
  const report = readOne('reports', stored, readReport);
  if (!report) return 'not-found';
  const created = sameId(stored?._id, _id);
  if (created) await withholdIfReported(store, fields.targetType, fields.targetId, now);
  return { report, created };
}

/** A page of reports with this status, newest first (`limit + 1` rows for the pager). */
export function listReports(store: Store, query: { status: ReportDoc['status']; limit: number; cursor?: ObjectId }) {
  return store.reports
    .find({ status: query.status, ...idPageFilter(query.cursor) })
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .toArray();
}

/** A page of the rider's own reports, newest first (`limit + 1` rows for the pager). */
export function listOwnReports(store: Store, reporterId: ObjectId, page: { limit: number; cursor?: ObjectId }) {
  return store.reports
    .find({ reporterId: anyIdOf(reporterId), ...idPageFilter(page.cursor) })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

/** The log's reason for a decision taken through the per-report route without one (older admin clients send none). */
export const DEFAULT_RESOLUTION_REASONS = {
  remove: 'Removed after a report.',
  dismiss: 'Report dismissed.',
} as const;

/**
 * Resolves one open report (the per-report route older admin clients use; the queue decides a whole target). The
 * report is claimed first (open → resolved in one update), so two admins resolving at once remove the content once;
 * the content goes through its own services, which keep the post counts exact. A reported rider is never removed
 * here: `remove` on a user report is refused before anything changes. Removing content also closes the other open
 * reports about it. The decision goes to the moderator action log; the answer names the content's author.
 */
export async function resolveReport(
  store: Store,
  reportId: ObjectId,
  decision: { action: NonNullable<ReportDoc['action']>; reason?: string },
  adminId: ObjectId,
): Promise<{ report: Report; subjectId?: ObjectId } | 'not-found' | 'resolved-already' | 'not-removable'> {
  const { action } = decision;
  const now = new Date();
  const resolution = { status: 'resolved' as const, action, resolvedBy: adminId, resolvedAt: now, updatedAt: now };
  const resolved = await store.reports.findOneAndUpdate(
    { _id: reportId, status: 'open', ...(action === 'remove' ? { targetType: { $ne: 'user' as const } } : {}) },
    { $set: resolution },
    { returnDocument: 'after' },
  );
  // One naming no usable target is on no desk page (left out as unreadable): resolved, it answers as not found.
  const report = readOne('reports', resolved, readReport);
  if (!resolved) {
    const found = await store.reports.findOne({ _id: reportId }, { projection: { status: 1, targetType: 1 } });
    if (!found) return 'not-found';
    return found.status === 'open' ? 'not-removable' : 'resolved-already';
  }
  if (!report) return 'not-found';
  // Read before removing: the removal deletes the content and its author with it.
  const subjectId = (await authorOf(store, report.targetType, report.targetId))?.userId;
  if (action === 'remove') {
    const caller = { userId: adminId, isAdmin: true };
    // Content already gone (removed by its author or another report) leaves nothing to do.
    if (report.targetType === 'post') await removePost(store, report.targetId, caller, 'hide');
    if (report.targetType === 'comment' && report.postId)
      await deleteComment(store, report.postId, report.targetId, caller);
    await store.reports.updateMany(
      { targetType: report.targetType, targetId: anyIdOf(report.targetId), status: 'open' },
      { $set: resolution },
    );
  }
  await recordModeratorAction(store, {
    actorId: adminId,
    action: action === 'remove' ? 'content.remove' : 'report.dismiss',
    target: { type: report.targetType, id: report.targetId },
    ...(subjectId ? { subjectId } : {}),
    reason: decision.reason ?? DEFAULT_RESOLUTION_REASONS[action],
    details: { reportId: report._id.toHexString() },
  });
  return { report, ...(subjectId ? { subjectId } : {}) };
}
