import { readDate } from '../../platform/db/stored-values';
import type { ReadModeratorAction } from './reader';

export const moderatorActionView = (entry: ReadModeratorAction) => ({
  _id: entry._id.toHexString(),
  actorId: entry.actorId?.toHexString() ?? null,
  action: entry.action,
  target: {
    type: entry.target.type,
    ...(entry.target.id ? { id: entry.target.id.toHexString() } : {}),
    ...(entry.target.text !== undefined ? { text: entry.target.text } : {}),
  },
  subjectId: entry.subjectId?.toHexString() ?? null,
  reason: entry.reason,
  ...(entry.details ? { details: entry.details } : {}),
  createdAt: entry.createdAt.toISOString(),
});

/** A decision as the rider it was about reads it: what, when and why, never which admin. */
export const ownModerationView = (entry: ReadModeratorAction) => {
  const until = entry.details?.until;
  return {
    _id: entry._id.toHexString(),
    action: entry.action,
    target: { type: entry.target.type, ...(entry.target.id ? { id: entry.target.id.toHexString() } : {}) },
    reason: entry.reason,
    ...(entry.action === 'rider.suspend' ? { until: readUntil(until) } : {}),
    createdAt: entry.createdAt.toISOString(),
  };
};

/** A suspension's end as its log entry stored it (a date or its ISO text); none or unreadable reads as indefinite. */
function readUntil(stored: unknown): string | null {
  return readDate(stored)?.toISOString() ?? null;
}
