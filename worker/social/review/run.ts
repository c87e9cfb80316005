import { askModerationModel, type ModerationInput } from '../../moderation/model/client';
import { moderationModel } from '../../moderation/model/settings';
import { workDueBatches } from '../../platform/db/claimed-batches';
import type { Store } from '../../platform/db/store';
import { readNumber } from '../../platform/db/stored-values';
import type { Env } from '../../platform/env';
import { LIMITS } from '../../platform/limits';
import { logEvent } from '../../platform/ops/log-line';
import { recordModerationCheck } from '../../platform/ops/metrics';
import type { ContentCheckDoc } from '../documents';
import { checkQueue, type Settlement } from './checks';
import { holdForReview } from './hold';
import { photoInput } from './photo-input';

export interface CheckRunSummary {
  claimed: number;
  clear: number;
  flagged: number;
  gone: number;
  retried: number;
  abandoned: number;
}

/**
 * The later-check run (worker/schedules.ts): asks the model again about content published while it was out; flagged
 * content is held then, as at write time. Without a configured model it does nothing, and the checks wait.
 */
export async function runContentChecks(store: Store, env: Env, now = new Date()): Promise<CheckRunSummary> {
  const model = moderationModel(env);
  const empty = { claimed: 0, clear: 0, flagged: 0, gone: 0, retried: 0, abandoned: 0 };
  if (!model) return empty;
  const { claimed, settled } = await workDueBatches(checkQueue(store), now, async (batch) => {
    const settlements: Settlement[] = [];
    for (const row of batch.rows)
      settlements.push(await checkOne(store, env, row, (input) => askModerationModel(model, input)));
    return settlements;
  });
  return {
    claimed,
    clear: settled.clear ?? 0,
    flagged: settled.flagged ?? 0,
    gone: settled.gone ?? 0,
    retried: settled.retry ?? 0,
    abandoned: settled.abandoned ?? 0,
  };
}

/** What the content of a check is now: its text, its photo, or gone (deleted since). */
async function inputOf(store: Store, env: Env, row: ContentCheckDoc): Promise<ModerationInput | 'gone'> {
  const { type, id } = row.target;
  if (type === 'media') {
    const media = await store.media.findOne({ _id: id });
    if (!media || media.hiddenAt) return 'gone';
    return (await photoInput(env.MEDIA, media)) ?? 'gone';
  }
  const rows = type === 'post' ? store.feed_posts : store.feed_comments;
  const stored = await rows.findOne({ _id: id }, { projection: { text: 1 } });
  return typeof stored?.text === 'string' ? { text: stored.text } : 'gone';
}

async function checkOne(
  store: Store,
  env: Env,
  row: ContentCheckDoc,
  ask: (input: ModerationInput) => ReturnType<typeof askModerationModel>,
): Promise<Settlement> {
  const input = await inputOf(store, env, row);
  if (input === 'gone') return { row, to: 'gone' };
  const verdict = await ask(input);
  const target = row.target.type;
  if (verdict.outcome === 'unavailable') {
    const attempts = (readNumber(row.attempts) ?? 0) + 1;
    if (attempts < LIMITS.moderation.checkMaxAttempts) {
      recordModerationCheck(env, { target, outcome: 'retried' });
      return { row, to: 'retry', error: verdict.error };
    }
    recordModerationCheck(env, { target, outcome: 'abandoned' });
    logEvent('moderation.check.abandoned', {
      targetType: target,
      targetId: row.target.id.toHexString(),
      attempts,
      error: verdict.error,
    });
    return { row, to: 'abandoned', error: verdict.error };
  }
  recordModerationCheck(env, { target, outcome: verdict.outcome });
  if (verdict.outcome === 'clear') return { row, to: 'clear' };
  return { row, to: (await holdForReview(store, row.target, verdict.categories)) === 'held' ? 'flagged' : 'gone' };
}
