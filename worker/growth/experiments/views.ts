import { LIMITS } from '../../platform/limits';
import type { ExperimentDoc } from '../documents';
import type { Results } from './service';
import { SRM_THRESHOLD } from './statistics';

export const experimentView = (experiment: ExperimentDoc) => ({
  key: experiment.key,
  description: experiment.description ?? null,
  variants: experiment.variants.map(({ key, weight }) => ({ key, weight })),
  status: experiment.status,
  platforms: experiment.platforms,
  primaryMetric: experiment.primaryMetric,
  startedAt: experiment.startedAt?.toISOString() ?? null,
  stoppedAt: experiment.stoppedAt?.toISOString() ?? null,
  createdAt: experiment.createdAt.toISOString(),
  updatedAt: experiment.updatedAt.toISOString(),
});

export const resultsView = (results: Results) => ({
  key: results.experiment.key,
  status: results.experiment.status,
  primaryMetric: results.experiment.primaryMetric,
  conversionWindowDays: LIMITS.experiments.conversionWindowMs / (24 * 60 * 60 * 1000),
  variants: results.variants,
  excludedUnits: results.excludedUnits,
  sampleRatio: {
    test: 'chi-square goodness of fit against the weights' as const,
    ...results.sampleRatio,
    threshold: SRM_THRESHOLD,
  },
});
