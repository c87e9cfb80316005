import type { ObjectId } from 'mongodb';
import {
  createdAtOf,
  readDate,
  readId,
  readOneOf,
  readRecord,
  readString,
  readStrings,
} from '../platform/db/stored-values';
import type { ReportDoc } from './documents';
import { REPORT_REASONS, REPORT_TARGETS } from './reports/schema';

// Blocks and reports read as their views and queries use them, whatever older code left in them
// (migrations-notes/legacy-documents-social.md).

export interface Block {
  _id: ObjectId;
  userId: ObjectId;
  blockedUserId: ObjectId;
  createdAt: Date;
}

export type Report = Omit<ReportDoc, 'updatedAt'>;

/** A block, or undefined when either rider's id is unusable. */
export function readBlock(doc: unknown): Block | undefined {
  const stored = readRecord(doc);
  const _id = readId(stored?._id);
  const userId = readId(stored?.userId);
  const blockedUserId = readId(stored?.blockedUserId);
  if (!stored || !_id || !userId || !blockedUserId) return undefined;
  return { _id, userId, blockedUserId, createdAt: createdAtOf(stored) };
}

/**
 * A report, or undefined when it names no usable target; a reason this service does not know reads as `other`,
 * a missing status as open.
 */
export function readReport(doc: unknown): Report | undefined {
  const stored = readRecord(doc);
  const _id = readId(stored?._id);
  const targetType = readOneOf(stored?.targetType, REPORT_TARGETS);
  const targetId = readId(stored?.targetId);
  if (!stored || !_id || !targetType || !targetId) return undefined;
  const reporterId = readId(stored.reporterId);
  const postId = readId(stored.postId);
  const note = readString(stored.note);
  const action = readOneOf(stored.action, ['remove', 'dismiss'] as const);
  const resolvedBy = readId(stored.resolvedBy);
  const resolvedAt = readDate(stored.resolvedAt);
  const source = readOneOf(stored.source, ['model'] as const);
  return {
    _id,
    ...(reporterId ? { reporterId } : {}),
    ...(source ? { source, categories: readStrings(stored.categories) } : {}),
    targetType,
    targetId,
    ...(postId ? { postId } : {}),
    reason: readOneOf(stored.reason, REPORT_REASONS) ?? 'other',
    ...(note !== undefined ? { note } : {}),
    status: readOneOf(stored.status, ['open', 'resolved'] as const) ?? 'open',
    ...(action ? { action } : {}),
    ...(resolvedBy ? { resolvedBy } : {}),
    ...(resolvedAt ? { resolvedAt } : {}),
    createdAt: createdAtOf(stored),
  };
}
