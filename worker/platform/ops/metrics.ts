import type { ShardRefusal } from '../../../durable-objects/shard-figures';
import type { Env } from '../env';
import { MODERATION_FIGURE_PREFIX, REALTIME_FIGURE_PREFIX } from './figure-names';
import { standInDataset, type WaitUntil } from './metrics-stand-in-dataset';

/**
 * One Analytics Engine data point per request, laid out for the SQL API queries of docs/operations.md:
 * blob1 route pattern, blob2 method, blob3 status class (`2xx`…), double1 duration ms, double2 status,
 * double3 database ms; index1 the route pattern, so sampling keeps every route represented.
 */
export interface RequestMetric {
  route: string;
  method: string;
  status: number;
  durationMs: number;
  dbMs: number;
}

export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/** The dataset points go to: production's METRICS; locally, where only the stand-in is bound, the stand-in. */
function datasetOf(env: Env | undefined, waitUntil?: WaitUntil): AnalyticsEngineDataset | undefined {
  if (env?.METRICS) return env.METRICS;
  return env?.METRICS_STAND_IN ? standInDataset(env.METRICS_STAND_IN, waitUntil) : undefined;
}

export function recordRequest(env: Env | undefined, metric: RequestMetric, waitUntil?: WaitUntil): void {
  // Without the binding (or an env, as in `app.request()`) (a deploy that has not added it yet) requests are only logged, never refused.
  datasetOf(env, waitUntil)?.writeDataPoint({
    blobs: [metric.route, metric.method, statusClass(metric.status)],
    doubles: [metric.durationMs, metric.status, metric.dbMs],
    indexes: [metric.route.slice(0, 96)],
  });
}

/**
 * A shard's open sessions (WebSockets and polling sessions, what `REALTIME_SESSIONS_PER_SHARD` caps), written when
 * one opens or closes and at every ping round, so a shard's latest point is its count now:
 * blob1 `realtime.sessions`, blob2 shard index, double1 sessions; index1 `shard-<index>`, so sampling keeps every shard.
 */
export function recordShardSessions(env: Env | undefined, figure: { shard: number; sessions: number }): void {
  env?.METRICS?.writeDataPoint({
    blobs: [`${REALTIME_FIGURE_PREFIX}sessions`, String(figure.shard)],
    doubles: [figure.sessions],
    indexes: [`shard-${figure.shard}`],
  });
}

/**
 * One event sent by a shard: blob1 `realtime.deliveries`, blob2 event name, blob3 namespace, double1 sockets it was
 * sent to (frames); index1 the event name.
 */
export function recordDelivery(env: Env | undefined, figure: { event: string; namespace: string; sockets: number }) {
  env?.METRICS?.writeDataPoint({
    blobs: [`${REALTIME_FIGURE_PREFIX}deliveries`, figure.event, figure.namespace],
    doubles: [figure.sockets],
    indexes: [figure.event],
  });
}

/**
 * Why a real-time client was turned away (docs/operations.md, Real-time figures): the Worker's handshake limit,
 * or one of the shard's own refusals (durable-objects/shard-figures.ts).
 */
export type RealtimeRefusalReason = 'handshake-rate-limited' | ShardRefusal;

/**
 * One refused client: blob1 `realtime.refusals`, blob2 reason, blob3 the refusal's own fixed text where it has
 * several (a namespace connect), double1 what it was answered (HTTP status, WebSocket close code, 0 for a Socket.IO
 * connect_error); index1 the reason.
 */
export function recordRealtimeRefusal(
  env: Env | undefined,
  figure: { reason: RealtimeRefusalReason; status: number; detail?: string },
): void {
  env?.METRICS?.writeDataPoint({
    blobs: [`${REALTIME_FIGURE_PREFIX}refusals`, figure.reason, figure.detail ?? ''],
    doubles: [figure.status],
    indexes: [figure.reason],
  });
}

/**
 * The moderation queue as its check found it (every 30 minutes): blob1 `moderation.queue`, double1 open items,
 * double2 items waiting over `LIMITS.report.agedItemHours`, double3 the oldest open item's age in hours (0 when none);
 * index1 `moderation.queue`.
 */
export function recordModerationQueue(
  env: Env | undefined,
  figure: { openItems: number; agedItems: number; oldestAgeHours: number },
  waitUntil?: WaitUntil,
): void {
  datasetOf(env, waitUntil)?.writeDataPoint({
    blobs: [`${MODERATION_FIGURE_PREFIX}queue`],
    doubles: [figure.openItems, figure.agedItems, figure.oldestAgeHours],
    indexes: [`${MODERATION_FIGURE_PREFIX}queue`],
  });
}

/** What became of one moderation model check (docs/moderation.md, "Held for review"). */
export type ModerationCheckOutcome = 'clear' | 'flagged' | 'deferred' | 'retried' | 'abandoned';

/**
 * One check of a post, comment or photo by the moderation model: blob1 `moderation.checks`, blob2 target type,
 * blob3 outcome, double1 1; index1 the outcome, so sampling keeps every outcome represented.
 */
export function recordModerationCheck(
  env: Env | undefined,
  figure: { target: 'post' | 'comment' | 'media'; outcome: ModerationCheckOutcome },
): void {
  env?.METRICS?.writeDataPoint({
    blobs: ['moderation.checks', figure.target, figure.outcome],
    doubles: [1],
    indexes: [figure.outcome],
  });
}
