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
