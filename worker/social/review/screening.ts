import type { ObjectId } from 'mongodb';
import type { Withheld } from '../../moderation/documents';
import type { Verdict } from '../../moderation/model/verdict';
import type { Store } from '../../platform/db/store';
import type { Env } from '../../platform/env';
import { logEvent } from '../../platform/ops/log-line';
import { recordModerationCheck } from '../../platform/ops/metrics';
import { deferCheck } from './checks';
import { fileModelReport } from './hold';

// A post or comment screened at write time (docs/moderation.md, "Held for review"): the text's check runs beside the
// write's other reads with a short timeout; flagged content is stored held, and content the model did not answer for
// is published and queued for a later check.

/** The flagged categories of a write: the text's verdict and those of any flagged photo on it, sorted, once each. */
export function flaggedCategories(verdict: Verdict | null, photoCategories: string[] = []): string[] {
  const text = verdict?.outcome === 'flagged' ? verdict.categories : [];
  return [...new Set([...text, ...photoCategories])].sort();
}

/** The hold a new post or comment is stored with: none unless flagged. */
export const holdAtWrite = (categories: string[], at: Date): { withheld?: Withheld } =>
  categories.length ? { withheld: { reason: 'review', at } } : {};

/**
 * After the write: held content gets its model report (the admins' queue), content the model did not answer for a
 * later check, and every verdict its figure.
 */
export async function afterScreening(
  store: Store,
  env: Env,
  target: { type: 'post' | 'comment'; id: ObjectId; postId?: ObjectId },
  verdict: Verdict | null,
  categories: string[],
): Promise<void> {
  const targetId = target.id.toHexString();
  if (categories.length) {
    const where = { targetType: target.type, targetId: target.id, ...(target.postId ? { postId: target.postId } : {}) };
    await fileModelReport(store, where, categories, new Date());
    recordModerationCheck(env, { target: target.type, outcome: 'flagged' });
    logEvent('moderation.content.held', { targetType: target.type, targetId, categories: categories.join(',') });
    return;
  }
  if (verdict?.outcome === 'unavailable')
    await deferCheck(store, env, { type: target.type, id: target.id }, verdict.error);
  else if (verdict) recordModerationCheck(env, { target: target.type, outcome: 'clear' });
}
