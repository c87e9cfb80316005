import { holds } from '../platform/db/collections';
import type {
  AnalyticsEventDoc,
  AnalyticsQuarantineDoc,
  ClientInstallationDoc,
  ClientVersionChangeDoc,
  ExperimentDoc,
  ExperimentExposureDoc,
  MobileVersionPolicyChangeDoc,
  MobileVersionPolicyDoc,
} from './documents';

/** Growth: analytics, experiments and the client versions riders run. Each collection's name and the type of its documents. */
export const GROWTH_COLLECTIONS = {
  analytics_events: holds<AnalyticsEventDoc>(),
  analytics_quarantine: holds<AnalyticsQuarantineDoc>(),
  experiments: holds<ExperimentDoc>(),
  experiment_exposures: holds<ExperimentExposureDoc>(),
  client_installations: holds<ClientInstallationDoc>(),
  client_version_history: holds<ClientVersionChangeDoc>(),
  mobile_version_policies: holds<MobileVersionPolicyDoc>(),
  mobile_version_policy_history: holds<MobileVersionPolicyChangeDoc>(),
};

type GrowthCollections = typeof GROWTH_COLLECTIONS;

// Adds these to the platform's list, so every Store has a typed accessor for each of them.
declare module '../platform/db/collections' {
  interface Collections extends GrowthCollections {}
}
