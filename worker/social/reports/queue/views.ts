import type { Document, ObjectId } from 'mongodb';
import { distinctIds } from '../../../platform/db/distinct-ids';
import {
  readArray,
  readCount,
  readDate,
  readId,
  readOneOf,
  readRecord,
  readStrings,
} from '../../../platform/db/stored-values';
import type { ReportReason, ReportTargetType } from '../../documents';
import { REPORT_REASONS, REPORT_TARGETS } from '../schema';
import { type ItemDecision, type TargetContent, targetKey } from './item';

const HOUR_MS = 60 * 60 * 1000;
const hours = (ms: number) => Math.round((ms / HOUR_MS) * 10) / 10;

/** One open item as the queue's aggregation grouped it (worker/social/reports/queue/service.ts `openItems`). */
export interface QueueRow {
  targetType: ReportTargetType;
  targetId: ObjectId;
  postId?: ObjectId;
  reports: number;
  riders: number;
  reporterIds: ObjectId[];
  fromModel: boolean;
  categories: string[];
  reasons: Partial<Record<ReportReason, number>>;
  notes: string[];
  firstAt: Date;
  lastAt: Date;
}

/** An aggregated row, or undefined when its target cannot be named; reports stored without a date count as now. */
export function readQueueRow(row: Document, now: Date): QueueRow | undefined {
  const key = readRecord(row._id);
  const targetType = readOneOf(key?.targetType, REPORT_TARGETS);
  const targetId = readId(key?.targetId);
  if (!targetType || !targetId) return undefined;
  const reasons: Partial<Record<ReportReason, number>> = {};
  for (const stored of readArray(row.reasons)) {
    const reason = readOneOf(stored, REPORT_REASONS) ?? 'other';
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  }
  const postId = readId(row.postId);
  return {
    targetType,
    targetId,
    ...(postId ? { postId } : {}),
    reports: readCount(row.reports) ?? 0,
    riders: readCount(row.riders) ?? 0,
    reporterIds: distinctIds(readArray(row.reporterIds)),
    fromModel: readCount(row.fromModel) === 1,
    categories: [...new Set(readArray(row.categories).flatMap((list) => readStrings(list)))],
    reasons,
    notes: readStrings(row.notes),
    firstAt: readDate(row.firstAt) ?? now,
    lastAt: readDate(row.lastAt) ?? now,
  };
}

export function queueItemView(row: QueueRow, content: Map<string, TargetContent>, now: Date) {
  const found = content.get(targetKey(row.targetType, row.targetId));
  const postId = row.postId ?? found?.postId;
  return {
    targetType: row.targetType,
    targetId: row.targetId.toHexString(),
    ...(postId ? { postId: postId.toHexString() } : {}),
    reports: row.reports,
    riders: row.riders,
    reporterIds: row.reporterIds.map((id) => id.toHexString()),
    fromModel: row.fromModel,
    categories: row.categories,
    reasons: row.reasons,
    notes: row.notes,
    firstReportedAt: row.firstAt.toISOString(),
    lastReportedAt: row.lastAt.toISOString(),
    ageHours: hours(now.getTime() - row.firstAt.getTime()),
    content: found
      ? {
          ...(found.text !== undefined ? { text: found.text } : {}),
          media: found.media,
          ...(found.name !== undefined ? { name: found.name } : {}),
        }
      : null,
    authorId: found?.authorId?.toHexString() ?? null,
    withheld: found?.withheld ? { reason: found.withheld.reason, at: found.withheld.at.toISOString() } : null,
  };
}

/** The queue's figures from the two aggregations' rows (either absent when nothing matched). */
export function queueFiguresView(open: Document | undefined, answered: Document | undefined, now: Date) {
  const oldestAt = readDate(open?.oldestAt);
  const decided = readCount(answered?.items) ?? 0;
  const withinDay = readCount(answered?.within) ?? 0;
  return {
    openItems: readCount(open?.items) ?? 0,
    agedItems: readCount(open?.aged) ?? 0,
    oldestOpenAt: oldestAt?.toISOString() ?? null,
    oldestAgeHours: oldestAt ? hours(now.getTime() - oldestAt.getTime()) : null,
    lastSevenDays: { decided, withinDay, share: decided ? withinDay / decided : null },
  };
}

export const decisionView = (decision: ItemDecision) => ({
  targetType: decision.targetType,
  targetId: decision.targetId.toHexString(),
  action: decision.action,
  reports: decision.reports,
  subjectId: decision.subjectId?.toHexString() ?? null,
});
