import type { RoomSettings } from '../../../durable-objects/socket-shard';
import { positiveIntSetting } from '../config';
import type { Env } from '../env';
import { LIMITS } from '../limits';

/** The rooms' timings and bounds: LIMITS.realtime, with the ping cadence and bounds overridable (tests shorten them). */
export function roomSettings(env: Env): RoomSettings {
  return {
    pingIntervalMs: positiveIntSetting(env, 'REALTIME_PING_INTERVAL_MS', LIMITS.realtime.pingIntervalMs),
    pingTimeoutMs: positiveIntSetting(env, 'REALTIME_PING_TIMEOUT_MS', LIMITS.realtime.pingTimeoutMs),
    maxPayloadBytes: LIMITS.realtime.maxPayloadBytes,
    typingTtlMs: LIMITS.realtime.typingTtlMs,
    sessionsPerShard: positiveIntSetting(env, 'REALTIME_SESSIONS_PER_SHARD', LIMITS.realtime.sessionsPerShard),
    shardFullRetryAfterSeconds: LIMITS.realtime.shardFullRetryAfterSeconds,
    connectTimeoutMs: positiveIntSetting(env, 'REALTIME_CONNECT_TIMEOUT_MS', LIMITS.realtime.connectTimeoutMs),
    connectsPerConnection: LIMITS.realtime.connectsPerConnection,
    connectWindowMs: LIMITS.realtime.connectWindowMs,
    pollQueuePackets: LIMITS.realtime.pollQueuePackets,
    pollQueueBytes: LIMITS.realtime.pollQueueBytes,
  };
}

/** How many socket shards spread the connections (docs/realtime.md, Topology). Only ever raise it. */
export const shardCount = (env: Env) => positiveIntSetting(env, 'REALTIME_SHARDS', LIMITS.realtime.shards);

/** The shard objects by their fixed names, so a broadcast reaches every one. */
export const shardName = (index: number) => `shard-${index}`;
