import { type Filter, ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import type { ExperimentExposureDoc } from '../documents';

// Experiment exposures (docs/experiments.md): the `experiment_exposed` event checked against the defined
// experiments, and the first exposure of each unit kept in experiment_exposures. Lives with ingestion, which
// records them; worker/growth/experiments/ reads them and applies the sign-in rule through adoptInstallationExposure.

/** The defined experiments as ingestion checks an exposure against them: key → variant keys and whether running. */
export type ExperimentCatalog = ReadonlyMap<string, { variants: readonly string[]; running: boolean }>;

export async function loadExperimentCatalog(store: Store): Promise<ExperimentCatalog> {
  const rows = await store.experiments.find({}, { projection: { key: 1, variants: 1, status: 1 } }).toArray();
  return new Map(
    rows.map((row) => [row.key, { variants: row.variants.map((v) => v.key), running: row.status === 'running' }]),
  );
}

/** What is wrong with an exposure's properties against the catalog: an unknown key, or a variant the key lacks. */
export function exposureRefusal(
  properties: { experimentKey: string; variant: string },
  catalog: ExperimentCatalog,
): { path: string; code: string } | null {
  const experiment = catalog.get(properties.experimentKey);
  if (!experiment) return { path: 'experimentKey', code: 'unknown' };
  return experiment.variants.includes(properties.variant) ? null : { path: 'variant', code: 'unknown' };
}

type UnitFilter = Pick<ExperimentExposureDoc, 'experimentKey' | 'userId' | 'installationId'>;

/**
 * Keeps the unit's first exposure in one atomic upsert: the variant of the first stored exposure stays, the
 * earliest time wins (a queued event may arrive late). Two first exposures racing: the loser retries as an update.
 */
async function keepFirstExposure(
  store: Store,
  unit: UnitFilter,
  variant: string,
  at: Date,
  extra: Partial<ExperimentExposureDoc> = {},
): Promise<ExperimentExposureDoc | null> {
  const now = new Date();
  const upsert = () =>
    store.experiment_exposures.findOneAndUpdate(
      unit as Filter<ExperimentExposureDoc>,
      {
        $setOnInsert: { _id: new ObjectId(), variant, createdAt: now, ...extra },
        $min: { firstExposedAt: at },
        $set: { updatedAt: now },
      },
      { upsert: true, returnDocument: 'after' },
    );
  // Two first exposures of one unit at once: the unique index lets one insert; the other now updates it.
  return onDuplicateKey(upsert, upsert);
}

/**
 * The sign-in rule: a rider signed in on an installation that was exposed keeps its variant. The installation's row
 * is marked adopted atomically (by this rider only), and the rider's row is created from it unless the rider already
 * has one (the rider's own earlier exposure wins). Returns the rider's variant, or null when the installation
 * has no exposure this rider may adopt.
 */
export async function adoptInstallationExposure(
  store: Store,
  experimentKey: string,
  installationId: string,
  userId: ObjectId,
): Promise<string | null> {
  const installation = await store.experiment_exposures.findOneAndUpdate(
    {
      experimentKey,
      userId: null,
      installationId,
      $or: [{ adoptedBy: { $exists: false } }, { adoptedBy: userId }],
    },
    { $set: { adoptedBy: userId, updatedAt: new Date() } },
    { returnDocument: 'after' },
  );
  if (!installation) return null;
  const rider = await keepFirstExposure(
    store,
    { experimentKey, userId, installationId: null },
    installation.variant,
    installation.firstExposedAt,
    { adoptedFrom: installationId },
  );
  return rider?.variant ?? installation.variant;
}

export interface Exposure {
  experimentKey: string;
  variant: string;
  userId: ObjectId | null;
  anonymousId: string | null;
  occurredAt: Date;
}

/** Records an accepted exposure event of a running experiment for its unit: the rider when signed in, else the installation. */
export async function recordExposure(store: Store, exposure: Exposure): Promise<void> {
  const { experimentKey, variant, userId, anonymousId, occurredAt } = exposure;
  if (userId) {
    if (anonymousId) await adoptInstallationExposure(store, experimentKey, anonymousId, userId);
    await keepFirstExposure(store, { experimentKey, userId, installationId: null }, variant, occurredAt);
  } else if (anonymousId) {
    await keepFirstExposure(store, { experimentKey, userId: null, installationId: anonymousId }, variant, occurredAt);
  }
}
