import type { CompanionStage } from '../documents';

export type { CompanionStage } from '../documents';

/**
 * The relationship stages and the interaction count at which each begins, lowest first: the one
 * place they are set. A rider who chats most days reaches `friend` in about a week and `bestie`
 * after a few months; early stages come quickly so a new rider feels the companion warm up.
 */
export const STAGE_THRESHOLDS: readonly { stage: CompanionStage; from: number }[] = [
  { stage: 'stranger', from: 0 },
  { stage: 'acquaintance', from: 5 },
  { stage: 'friend', from: 20 },
  { stage: 'close_friend', from: 60 },
  { stage: 'bestie', from: 150 },
];

export const STAGES = STAGE_THRESHOLDS.map((row) => row.stage) as [CompanionStage, ...CompanionStage[]];

/** The stage a rider is at after `count` interactions. */
export function stageFor(count: number): CompanionStage {
  let stage: CompanionStage = 'stranger';
  for (const row of STAGE_THRESHOLDS) if (count >= row.from) stage = row.stage;
  return stage;
}

/**
 * The same rule as an aggregation expression over a count expression, so the atomic profile
 * update (worker/companion/chat/profile.ts) sets the stage from the count it has just written.
 */
export function stageExpression(count: unknown): unknown {
  return {
    $switch: {
      branches: [...STAGE_THRESHOLDS].reverse().map((row) => ({
        case: { $gte: [count, row.from] },
        // biome-ignore lint/suspicious/noThenProperty: the shape of MongoDB's $switch branch
        then: row.stage,
      })),
      default: 'stranger',
    },
  };
}
