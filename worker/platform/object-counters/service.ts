import type { CounterSnapshot } from '../../../durable-objects/object-counters';
import { positiveIntSetting } from '../config';
import type { Env } from '../env';
import { LIMITS } from '../limits';
import { shardCount, shardName } from '../realtime/settings';
import type { ObjectCountersReport } from './schema';

/**
 * Reads every socket shard's and database gateway's counters, and those of the named riders'
 * presence objects (one per rider, too many to list). Reading creates an object that did not exist,
 * with zero counts: harmless, it holds nothing.
 */
export async function readObjectCounters(env: Env, riderIds: string[]): Promise<ObjectCountersReport> {
  const gateways = positiveIntSetting(env, 'DB_GATEWAYS', LIMITS.dbGateway.objects);
  const shardNames = Array.from({ length: shardCount(env) }, (_, i) => shardName(i));
  const gatewayNames = Array.from({ length: gateways }, (_, i) => `db-gateway-${i}`);
  const [socketShards, dbGateways, riderPresence] = await Promise.all([
    Promise.all(
      shardNames.map(async (name) =>
        named(name, await env.SOCKET_SHARD.get(env.SOCKET_SHARD.idFromName(name)).readCounters()),
      ),
    ),
    Promise.all(
      gatewayNames.map(async (name) =>
        named(name, await env.DB_GATEWAY.get(env.DB_GATEWAY.idFromName(name)).readCounters()),
      ),
    ),
    Promise.all(
      riderIds.map(async (riderId) => ({
        riderId,
        ...plain(await env.RIDER_PRESENCE.get(env.RIDER_PRESENCE.idFromName(riderId)).readCounters()),
      })),
    ),
  ]);
  return { readAt: Date.now(), socketShards, dbGateways, riderPresence };
}

const named = (name: string, counters: CounterSnapshot) => ({ name, ...plain(counters) });

// RPC results arrive as structured clones; copy the fields so the response has exactly these.
const plain = (c: CounterSnapshot): CounterSnapshot => ({
  requests: c.requests,
  wallMs: c.wallMs,
  cpuMs: c.cpuMs,
  peakPerSecond: c.peakPerSecond,
  startedAt: c.startedAt,
});

/** Restarts shard `index`; null when there is no such shard. */
export async function resetShard(env: Env, index: number): Promise<number | null> {
  if (index >= shardCount(env)) return null;
  return env.SOCKET_SHARD.get(env.SOCKET_SHARD.idFromName(shardName(index))).reset();
}
