import { type Filter, ObjectId, type UpdateFilter } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import { isExcludedAccount } from '../analytics/exclusion';
import { adoptInstallationExposure } from '../analytics/exposures';
import type { ExperimentDoc } from '../documents';
import { variantFor } from './assignment';
import { resultsPipeline } from './pipelines';
import { CONTROL, type ExperimentCreate, type ExperimentPatch, type ExperimentStatus } from './schema';
import { rate, type SampleRatioCheck, sampleRatioCheck, waldDifference } from './statistics';

export async function listExperiments(store: Store): Promise<ExperimentDoc[]> {
  return store.experiments.find({}).sort({ createdAt: -1 }).limit(LIMITS.experiments.listMax).toArray();
}

export async function findExperiment(store: Store, key: string): Promise<ExperimentDoc | null> {
  return store.experiments.findOne({ key });
}

/** Creates an experiment; null when the key is taken (the unique index decides, so two racing creates get one). */
export async function createExperiment(store: Store, input: ExperimentCreate): Promise<ExperimentDoc | null> {
  const now = new Date();
  const doc: ExperimentDoc = {
    _id: new ObjectId(),
    key: input.key,
    ...(input.description ? { description: input.description } : {}),
    variants: input.variants,
    status: input.status,
    platforms: input.platforms,
    primaryMetric: input.primaryMetric,
    ...(input.status === 'running' ? { startedAt: now } : {}),
    createdAt: now,
    updatedAt: now,
  };
  return onDuplicateKey(
    async () => {
      await store.experiments.insertOne(doc);
      return doc;
    },
    () => null,
  );
}

/** Which statuses an experiment may be in for a PATCH to set `to`: never back to draft once it has run. */
const ALLOWED_FROM: Record<ExperimentStatus, ExperimentStatus[]> = {
  draft: ['draft'],
  running: ['draft', 'running', 'stopped'],
  stopped: ['running', 'stopped'],
};

export type PatchOutcome =
  | { outcome: 'changed'; experiment: ExperimentDoc }
  | { outcome: 'missing' }
  | { outcome: 'frozen-variants'; status: ExperimentStatus }
  | { outcome: 'bad-transition'; from: ExperimentStatus; to: ExperimentStatus };

/**
 * Applies a change in one conditional update: the filter holds the statuses the change is allowed from, so a
 * weights change racing a start cannot slip in after it. Variants change only while draft: once units were
 * assigned under the weights, changing them would mix populations and bias the results.
 */
export async function patchExperiment(store: Store, key: string, patch: ExperimentPatch): Promise<PatchOutcome> {
  const now = new Date();
  const allStatuses: ExperimentStatus[] = ['draft', 'running', 'stopped'];
  const from = (patch.status ? ALLOWED_FROM[patch.status] : allStatuses).filter(
    (status) => !patch.variants || status === 'draft',
  );
  const { status, ...fields } = patch;
  const update: UpdateFilter<ExperimentDoc> = { $set: { ...fields, updatedAt: now } };
  if (status) {
    update.$set = { ...update.$set, status };
    if (status === 'running') {
      update.$min = { startedAt: now };
      update.$unset = { stoppedAt: '' };
    }
    if (status === 'stopped') update.$set = { ...update.$set, stoppedAt: now };
  }
  const changed = await store.experiments.findOneAndUpdate(
    { key, status: { $in: from } } as Filter<ExperimentDoc>,
    update,
    { returnDocument: 'after' },
  );
  if (changed) return { outcome: 'changed', experiment: changed };
  // The update refused: say why from what is stored now.
  const current = await findExperiment(store, key);
  if (!current) return { outcome: 'missing' };
  if (patch.variants && current.status !== 'draft') return { outcome: 'frozen-variants', status: current.status };
  return { outcome: 'bad-transition', from: current.status, to: status ?? current.status };
}

/**
 * The variant of each running experiment of the platform for the caller (docs/experiments.md, "Assignment"): the
 * hash of the experiment key and the unit (the rider when signed in, else the installation); control for excluded
 * accounts; and for a signed-in rider the sign-in rule: a variant the installation was exposed to, or the rider's
 * own first exposure, is kept.
 */
export async function assignmentsFor(
  store: Store,
  request: { installationId: string; platform: 'ios' | 'android' | 'web'; userId: ObjectId | null },
): Promise<Record<string, string>> {
  const { installationId, platform, userId } = request;
  const running = await store.experiments
    .find({ status: 'running', platforms: platform }, { projection: { key: 1, variants: 1 } })
    .toArray();
  if (!running.length) return {};
  const hashed = (unit: string) =>
    Object.fromEntries(
      running.map((experiment) => [experiment.key, variantFor(experiment.key, experiment.variants, unit)]),
    );
  if (!userId) return hashed(installationId);
  const account = await store.users.findOne(
    { _id: userId },
    { projection: { role: 1, isBot: 1, analyticsExcluded: 1 } },
  );
  if (!account || isExcludedAccount(account)) return Object.fromEntries(running.map(({ key }) => [key, CONTROL]));

  const assigned = hashed(userId.toHexString());
  // One read finds every stored exposure that can override the hash; a write happens only to adopt one.
  const exposures = await store.experiment_exposures
    .find(
      {
        experimentKey: { $in: running.map(({ key }) => key) },
        $or: [{ userId }, { userId: null, installationId }],
      },
      { projection: { experimentKey: 1, userId: 1, adoptedBy: 1, variant: 1 } },
    )
    .toArray();
  for (const { key } of running) {
    const mine = exposures.find((row) => row.experimentKey === key && row.userId?.equals(userId));
    const device = exposures.find(
      (row) => row.experimentKey === key && row.userId === null && (!row.adoptedBy || row.adoptedBy.equals(userId)),
    );
    if (device && !device.adoptedBy) {
      assigned[key] = (await adoptInstallationExposure(store, key, installationId, userId)) ?? assigned[key]!;
    } else if (mine) {
      assigned[key] = mine.variant;
    } else if (device) {
      assigned[key] = device.variant;
    }
  }
  return assigned;
}

export interface VariantResult {
  variant: string;
  weight: number;
  exposedUnits: number;
  convertedUnits: number;
  rate: number | null;
  differenceToControl: ReturnType<typeof waldDifference>;
}

export interface Results {
  experiment: ExperimentDoc;
  variants: VariantResult[];
  excludedUnits: number;
  sampleRatio: SampleRatioCheck;
}

/** Joins the counts per variant (from the database) with the statistics (worker/growth/experiments/statistics.ts). */
export function resultsOf(
  experiment: ExperimentDoc,
  counts: ReadonlyMap<string, { units: number; converted: number; excluded: number }>,
): Omit<Results, 'experiment'> {
  const arms = experiment.variants.map(({ key, weight }) => ({
    key,
    weight,
    units: counts.get(key)?.units ?? 0,
    converted: counts.get(key)?.converted ?? 0,
  }));
  const control = arms[0]!;
  return {
    variants: arms.map((arm, index) => ({
      variant: arm.key,
      weight: arm.weight,
      exposedUnits: arm.units,
      convertedUnits: arm.converted,
      rate: rate(arm.converted, arm.units),
      differenceToControl: index === 0 ? null : waldDifference(arm, control),
    })),
    excludedUnits: [...counts.values()].reduce((sum, row) => sum + row.excluded, 0),
    sampleRatio: sampleRatioCheck(arms),
  };
}

/** An experiment's results, counted in the database; null when there is no such experiment. */
export async function experimentResults(store: Store, key: string): Promise<Results | null> {
  const experiment = await findExperiment(store, key);
  if (!experiment) return null;
  const [span] = await store.experiment_exposures
    .aggregate<{ from: Date; to: Date }>([
      { $match: { experimentKey: key } },
      { $group: { _id: null, from: { $min: '$firstExposedAt' }, to: { $max: '$firstExposedAt' } } },
    ])
    .toArray();
  const rows = span
    ? await store.experiment_exposures
        .aggregate<{ _id: string; units: number; converted: number; excluded: number }>(
          resultsPipeline(
            key,
            experiment.primaryMetric,
            span.from,
            new Date(span.to.getTime() + LIMITS.experiments.conversionWindowMs),
          ),
        )
        .toArray()
    : [];
  return { experiment, ...resultsOf(experiment, new Map(rows.map((row) => [row._id, row]))) };
}
