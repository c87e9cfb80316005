import type { MetricsStandIn, StoredDataPoint } from '../../../durable-objects/metrics-stand-in';
import type { Env } from '../env';

/** Keeps a request's background work alive past its answer (the execution context's `waitUntil`). */
export type WaitUntil = (work: Promise<unknown>) => void;

// One object holds every local point: the local stack and the tests carry a developer's traffic, not production's.
const standInOf = (namespace: DurableObjectNamespace<MetricsStandIn>) => namespace.get(namespace.idFromName('local'));

/**
 * LOCAL ONLY: the Analytics Engine binding's shape over the METRICS_STAND_IN object (durable-objects/metrics-stand-in.ts),
 * for configurations that bind the stand-in and no real METRICS. As the real binding, `writeDataPoint` returns
 * nothing and is never awaited: the point is sent in the background, so the request path waits for nothing.
 */
export function standInDataset(
  namespace: DurableObjectNamespace<MetricsStandIn>,
  waitUntil?: WaitUntil,
): AnalyticsEngineDataset {
  return {
    writeDataPoint(point: AnalyticsEngineDataPoint = {}) {
      const sent = standInOf(namespace)
        .write({
          blobs: (point.blobs ?? []).map((b) =>
            b === null || typeof b === 'string' ? b : new TextDecoder().decode(b),
          ),
          doubles: point.doubles ?? [],
          indexes: (point.indexes ?? []).map((i) =>
            i === null || typeof i === 'string' ? i : new TextDecoder().decode(i),
          ),
        })
        // A lost local point costs a figure on /admin/ops, never the request.
        .catch(() => undefined);
      waitUntil?.(sent);
    },
  };
}

/** The last hour's points the stand-in holds, or null where none is bound (production and staging). */
export async function standInPoints(env: Env): Promise<StoredDataPoint[] | null> {
  return env.METRICS_STAND_IN ? standInOf(env.METRICS_STAND_IN).recent() : null;
}
