import { ObjectId } from 'mongodb';
import type { Store } from '../../platform/db/store';
import { readId } from '../../platform/db/stored-values';
import { logEvent } from '../../platform/ops/log-line';
import type { CheckTarget, ReportDoc } from '../documents';
import { reportReasonOf } from './reasons';

// What the moderation model's flag does: the content stays stored but is held (`withheld: { reason: 'review' }`,
// shown to its author only, worker/social/visibility.ts), and an open report with `source: 'model'` puts it on the
// admins' queue. Content already held (by reports) keeps its reason.

const review = (at: Date) => ({ reason: 'review' as const, at });

/** Files the model's open report on a post or comment, once: a second flag of the same content finds it. */
export async function fileModelReport(
  store: Store,
  target: { targetType: 'post' | 'comment'; targetId: ObjectId; postId?: ObjectId },
  categories: string[],
  now: Date,
): Promise<void> {
  const report: Omit<ReportDoc, '_id'> = {
    ...target,
    reason: reportReasonOf(categories),
    status: 'open',
    source: 'model',
    categories,
    createdAt: now,
    updatedAt: now,
  };
  await store.reports.updateOne(
    { targetType: target.targetType, targetId: target.targetId, source: 'model', status: 'open' },
    { $setOnInsert: { _id: new ObjectId(), ...report } },
    { upsert: true },
  );
}

/**
 * Holds flagged content and files its report; a flagged photo holds the post it is attached to (with the report on
 * the post). 'gone' when the content was deleted meanwhile.
 */
export async function holdForReview(
  store: Store,
  target: CheckTarget,
  categories: string[],
  now = new Date(),
): Promise<'held' | 'gone'> {
  if (target.type === 'media') {
    const media = await store.media.findOneAndUpdate(
      { _id: target.id },
      { $set: { withheld: { ...review(now), categories }, updatedAt: now } },
      { returnDocument: 'after', projection: { attachedTo: 1 } },
    );
    if (!media) return 'gone';
    const postId = media.attachedTo?.kind === 'post' ? readId(media.attachedTo.postId) : undefined;
    if (postId) await holdForReview(store, { type: 'post', id: postId }, categories, now);
    logEvent('moderation.content.held', {
      targetType: 'media',
      targetId: target.id.toHexString(),
      categories: categories.join(','),
    });
    return 'held';
  }
  const rows = target.type === 'post' ? store.feed_posts : store.feed_comments;
  // Only where nothing holds it yet: a `reports` hold keeps its reason.
  await rows.updateOne(
    { _id: target.id, withheld: { $exists: false } },
    { $set: { withheld: review(now), updatedAt: now } },
  );
  const stored = await rows.findOne({ _id: target.id }, { projection: { postId: 1 } });
  if (!stored) return 'gone';
  const postId = 'postId' in stored ? readId(stored.postId) : undefined;
  await fileModelReport(
    store,
    { targetType: target.type, targetId: target.id, ...(postId ? { postId } : {}) },
    categories,
    now,
  );
  logEvent('moderation.content.held', {
    targetType: target.type,
    targetId: target.id.toHexString(),
    categories: categories.join(','),
  });
  return 'held';
}
