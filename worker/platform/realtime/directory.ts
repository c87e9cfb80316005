import type { ServerEvent } from '../../../durable-objects/realtime-events';
import type { PresenceEntry } from '../../../durable-objects/rider-presence';
import type { EndedTokens } from '../../../durable-objects/socket-attachment';
import { shardOfSocket } from '../../../durable-objects/socket-session-id';
import type { Env } from '../env';
import { shardCount, shardName } from './settings';

// How one event reaches its receivers (docs/realtime.md, Topology): a rider's directory entry
// (durable-objects/rider-presence.ts) names the shards holding their sockets; a feed-wide event
// goes to every shard.

const presenceOf = (env: Env, userId: string) => env.RIDER_PRESENCE.get(env.RIDER_PRESENCE.idFromName(userId));

/**
 * Each rider's directory entry read at most once: one request's publish and push (a message's delivery and its push
 * decision) ask the same riders, and share one call per rider instead of one each.
 */
export class PresenceReads {
  private readonly entries = new Map<string, Promise<PresenceEntry>>();
  constructor(private readonly env: Env) {}

  of(userId: string): Promise<PresenceEntry> {
    let entry = this.entries.get(userId);
    if (!entry) {
      entry = presenceOf(this.env, userId).entry();
      this.entries.set(userId, entry);
    }
    return entry;
  }
}

/** Records that a shard holds (or stopped holding) one of a rider's sockets. */
export async function recordPresence(env: Env, userId: string, shardId: string, socketId: string, present: boolean) {
  const presence = presenceOf(env, userId);
  await (present ? presence.attach(shardId, socketId) : presence.detach(shardId, socketId));
}

/** Records which conversation one of a rider's sockets shows, or null for none (docs/message-pushes.md). */
export async function recordViewing(
  env: Env,
  userId: string,
  shardId: string,
  socketId: string,
  conversationId: string | null,
  seq: number,
) {
  await presenceOf(env, userId).view(shardId, socketId, conversationId, seq);
}

/** The riders among these of whom a live socket shows the conversation: one directory call per rider not yet read. */
export async function ridersViewing(
  presence: PresenceReads,
  userIds: string[],
  conversationId: string,
): Promise<Set<string>> {
  const riders = [...new Set(userIds)];
  const entries = await Promise.all(riders.map((userId) => presence.of(userId)));
  return new Set(riders.filter((_, i) => entries[i]!.viewing.includes(conversationId)));
}

/** The connection an event leaves out (the one that caused it): its namespace socket id, and its rider. */
export interface ExceptConnection {
  sid: string;
  userId: string;
}

/**
 * Sends an event to every connection of the given riders, except the connection `except`: one directory read per
 * rider not yet read, then one call per shard involved. A shard whose only connection of the `except` rider is that
 * one (its socket id names the shard) is not called for them: a sender on one device costs no call for their echo.
 */
export async function sendToRiders(
  env: Env,
  userIds: string[],
  event: ServerEvent,
  except?: ExceptConnection,
  presence = new PresenceReads(env),
) {
  const askedAt = Date.now();
  const riders = [...new Set(userIds)];
  const entries = await Promise.all(riders.map((userId) => presence.of(userId)));
  const exceptIndex = except ? shardOfSocket(except.sid) : null;
  const exceptShard = exceptIndex === null ? null : env.SOCKET_SHARD.idFromName(shardName(exceptIndex)).toString();
  const ridersByShard = new Map<string, string[]>();
  riders.forEach((userId, i) => {
    const entry = entries[i]!;
    for (const shardId of entry.shards) {
      if (shardId === exceptShard && userId === except?.userId && entry.sockets[shardId] === 1) continue;
      ridersByShard.set(shardId, [...(ridersByShard.get(shardId) ?? []), userId]);
    }
  });
  await Promise.all(
    [...ridersByShard].map(async ([shardId, onShard]) => {
      const shard = env.SOCKET_SHARD.get(env.SOCKET_SHARD.idFromString(shardId));
      const absent = await shard.deliver(onShard, event, except);
      await Promise.all(absent.map((userId) => presenceOf(env, userId).detachShard(shardId, askedAt)));
    }),
  );
}

const everyShard = (env: Env) =>
  Array.from({ length: shardCount(env) }, (_, i) => env.SOCKET_SHARD.get(env.SOCKET_SHARD.idFromName(shardName(i))));

/** Sends an event to every connection on its namespace, except the given riders' (those who blocked its author). */
export async function broadcast(env: Env, event: ServerEvent, exceptUserIds: string[]) {
  await Promise.all(everyShard(env).map((shard) => shard.broadcast(event, exceptUserIds)));
}

/**
 * Tells every shard that whom these riders may reach changed (a block made or lifted): any shard may hold what it
 * read of them, since a rider's next connection goes to a random one.
 */
export async function relationsChanged(env: Env, userIds: string[]) {
  await Promise.all(everyShard(env).map((shard) => shard.relationsChanged(userIds)));
}

/** Closes a rider's sockets whose tokens ended, on every shard their directory entry names. */
export async function closeRiderSockets(env: Env, userId: string, ended: EndedTokens): Promise<void> {
  const { shards } = await presenceOf(env, userId).entry();
  await Promise.all(
    shards.map((shardId) => env.SOCKET_SHARD.get(env.SOCKET_SHARD.idFromString(shardId)).closeRider(userId, ended)),
  );
}
