import type { Report } from '../stored-moderation';

export function reportView(report: Report) {
  return {
    _id: report._id.toHexString(),
    reporterId: report.reporterId?.toHexString() ?? null,
    targetType: report.targetType,
    targetId: report.targetId.toHexString(),
    ...(report.postId ? { postId: report.postId.toHexString() } : {}),
    reason: report.reason,
    ...(report.note ? { note: report.note } : {}),
    status: report.status,
    ...(report.action ? { action: report.action } : {}),
    ...(report.resolvedBy ? { resolvedBy: report.resolvedBy.toHexString() } : {}),
    ...(report.resolvedAt ? { resolvedAt: report.resolvedAt.toISOString() } : {}),
    createdAt: report.createdAt.toISOString(),
  };
}

/** A rider's own report as they read it: its state, never who resolved it. */
export function ownReportView(report: Report) {
  const state = report.status === 'open' ? 'open' : report.action === 'remove' ? 'removed' : 'dismissed';
  return {
    _id: report._id.toHexString(),
    targetType: report.targetType,
    targetId: report.targetId.toHexString(),
    reason: report.reason,
    state,
    createdAt: report.createdAt.toISOString(),
    ...(report.status === 'resolved' && report.resolvedAt ? { decidedAt: report.resolvedAt.toISOString() } : {}),
  } as const;
}
