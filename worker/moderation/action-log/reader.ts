import { createdAtOf, readId, readOneOf, readRecord, readString } from '../../platform/db/stored-values';
import { MODERATION_TARGETS, MODERATOR_ACTIONS, type ModeratorActionDoc } from '../documents';

/** A logged action as read back; undefined when the stored entry names no action this service knows. */
export type ReadModeratorAction = Omit<ModeratorActionDoc, 'updatedAt'>;

export function readModeratorAction(doc: Record<string, unknown>): ReadModeratorAction | undefined {
  const _id = readId(doc._id);
  const action = readOneOf(doc.action, MODERATOR_ACTIONS);
  const target = readRecord(doc.target);
  const targetType = readOneOf(target?.type, MODERATION_TARGETS);
  if (!_id || !action || !targetType) return undefined;
  const targetId = readId(target?.id);
  const targetText = readString(target?.text);
  const details = readRecord(doc.details);
  return {
    _id,
    ...optional('actorId', readId(doc.actorId)),
    action,
    target: { type: targetType, ...optional('id', targetId), ...optional('text', targetText) },
    ...optional('subjectId', readId(doc.subjectId)),
    reason: readString(doc.reason) ?? '',
    ...optional('details', details),
    createdAt: createdAtOf(doc),
  };
}

const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
