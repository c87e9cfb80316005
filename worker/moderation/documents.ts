import type { ObjectId } from 'mongodb';
import type { StoredDoc } from '../platform/db/stored-doc';
import type { TermKind, TermMatch } from './word-filter/matching';

/** What a moderator did. One source for the log's kinds: the routes, the views and the page read this list. */
export const MODERATOR_ACTIONS = [
  'content.remove',
  'report.dismiss',
  'rider.suspend',
  'rider.lift',
  'term.add',
  'term.remove',
] as const;
export type ModeratorAction = (typeof MODERATOR_ACTIONS)[number];

/** What an action was taken on. */
export const MODERATION_TARGETS = ['post', 'comment', 'user', 'term', 'report'] as const;
export type ModerationTargetType = (typeof MODERATION_TARGETS)[number];

/**
 * One moderator action, appended once and never changed (worker/moderation/action-log/service.ts):
 * who (`actorId`), what (`action`, the target), when (`createdAt`) and why (`reason`).
 */
export interface ModeratorActionDoc extends StoredDoc {
  /** The admin; absent once their own account is deleted (the action stays in the log). */
  actorId?: ObjectId;
  action: ModeratorAction;
  target: { type: ModerationTargetType; id?: ObjectId; text?: string };
  /** The rider the action was about (the author of removed content, the suspended rider); absent once deleted. */
  subjectId?: ObjectId;
  reason: string;
  /** Whatever the action needs said beyond its reason: a suspension's end, the reports it answered. */
  details?: Record<string, unknown>;
}

/** Why content is held: the model flagged it for review, or riders reported it. */
export const WITHHELD_REASONS = ['review', 'reports'] as const;

/**
 * Content or an account held from everyone but its author until a moderator decides: `review` when the filter's
 * model flagged it, `reports` when three distinct riders reported it (worker/social/reports/withholding.ts).
 */
export interface Withheld {
  reason: (typeof WITHHELD_REASONS)[number];
  at: Date;
}

/** Whether a stored post, comment, media item or account is withheld: the mark is set, and unset means missing or null. */
export const isWithheld = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * A term admins added to the word filter (worker/moderation/word-filter/): refused in what riders publish, or allowed
 * where the built-in list would refuse it. Stored normalised (`normalizeTerm`), once (a unique index).
 */
export interface ModerationTermDoc extends StoredDoc {
  term: string;
  kind: TermKind;
  match: TermMatch;
}
