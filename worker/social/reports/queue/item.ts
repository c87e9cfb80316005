import type { ObjectId } from 'mongodb';
import type { Withheld } from '../../../moderation/documents';
import type { ReportTargetType } from '../../documents';

// The shapes the queue's service, its readers and its views share (kept free of the store, so the views' unit tests
// run in Node).

/** What the queue shows of a reported target, read from the target's own collection. */
export interface TargetContent {
  authorId?: ObjectId;
  postId?: ObjectId;
  text?: string;
  media: { type: 'image' | 'video'; url: string }[];
  /** A reported rider's name. */
  name?: string;
  withheld?: Withheld;
}

export const targetKey = (type: ReportTargetType, id: ObjectId) => `${type}:${id.toHexString()}`;

export type QueueAction = 'remove' | 'dismiss';

export interface ItemDecision {
  targetType: ReportTargetType;
  targetId: ObjectId;
  action: QueueAction;
  /** The rider the content was by (the reported rider for a user item); absent when unknown or gone. */
  subjectId?: ObjectId;
  /** Open reports this decision resolved. */
  reports: number;
}
