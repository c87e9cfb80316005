import { DurableObject } from 'cloudflare:workers';
import { type CounterSnapshot, ObjectCounters } from './object-counters';

const PREFIX = 'socket:';
const VIEWING = 'viewing:';

/** What one socket shows, and the number of the change that set it (durable-objects/socket-shard.ts `onViewing`). */
interface Viewing {
  conversationId: string | null;
  seq: number;
}

/** What a rider's directory entry says in one read: the shards holding their sockets, and the conversations those show. */
export interface PresenceEntry {
  shards: string[];
  viewing: string[];
  /** How many of the rider's connections each of those shards holds: one that is the sender's own needs no call. */
  sockets: Record<string, number>;
}

/**
 * The directory entry of one rider (one object per rider id): which socket shards hold their
 * connections, so an event for them goes to those shards only (docs/realtime.md, Topology), and
 * which conversation each socket shows, so a message push skips a chat on screen (docs/message-pushes.md).
 * It records sockets, not shards, so one device leaving and another arriving on the same shard,
 * reported in either order, leave the shard listed.
 */
export class RiderPresence extends DurableObject {
  /** Requests and time this instance carried (docs/scale.md); reading them is not counted. */
  private readonly counters = new ObjectCounters();
  /**
   * The entry as last read, until a write here changes it: every message to the rider reads it, and only this
   * object writes its storage, so memory stays exact. `changes` counts writes, so a read that crossed one is not kept.
   */
  private known: PresenceEntry | undefined;
  private changes = 0;

  private changed(): void {
    this.known = undefined;
    this.changes += 1;
  }

  readCounters(): CounterSnapshot {
    return this.counters.snapshot();
  }

  attach(shardId: string, socketId: string): Promise<void> {
    this.changed();
    return this.counters.track(() => this.ctx.storage.put(`${PREFIX}${shardId}:${socketId}`, Date.now()));
  }

  detach(shardId: string, socketId: string): Promise<void> {
    this.changed();
    return this.counters.track(() =>
      this.ctx.storage
        .delete([`${PREFIX}${shardId}:${socketId}`, `${VIEWING}${shardId}:${socketId}`])
        .then(() => undefined),
    );
  }

  /**
   * Forgets the sockets a shard said it does not hold (it restarted without closing them), as of
   * `askedAt`: a socket that attached after the shard was asked stays.
   */
  detachShard(shardId: string, askedAt: number): Promise<void> {
    return this.counters.track(() => this.detachShardHere(shardId, askedAt));
  }

  private async detachShardHere(shardId: string, askedAt: number): Promise<void> {
    const entries = await this.ctx.storage.list<number>({ prefix: `${PREFIX}${shardId}:` });
    const stale = [...entries].filter(([, attachedAt]) => attachedAt < askedAt).map(([key]) => key);
    const views = stale.map((key) => `${VIEWING}${key.slice(PREFIX.length)}`);
    const keys = [...stale, ...views];
    if (keys.length) this.changed();
    // Storage deletes at most 128 keys per call.
    for (let i = 0; i < keys.length; i += 128) await this.ctx.storage.delete(keys.slice(i, i + 128));
    // A read between two of those deletes may have kept a partial entry.
    if (keys.length) this.changed();
  }

  /** The whole entry in one call and one storage read: a message's publish and its push both need it. */
  entry(): Promise<PresenceEntry> {
    return this.counters.track(() => this.entryHere());
  }

  private async entryHere(): Promise<PresenceEntry> {
    if (this.known) return this.known;
    const readAt = this.changes;
    const sockets: Record<string, number> = {};
    const viewing = new Set<string>();
    // The object stores only socket and viewing keys, so one list reads both.
    for (const [key, value] of await this.ctx.storage.list()) {
      if (key.startsWith(PREFIX)) {
        const shard = key.slice(PREFIX.length, key.lastIndexOf(':'));
        sockets[shard] = (sockets[shard] ?? 0) + 1;
      } else if (key.startsWith(VIEWING) && (value as Viewing).conversationId !== null)
        viewing.add((value as Viewing).conversationId!);
    }
    const entry = { shards: Object.keys(sockets), viewing: [...viewing], sockets };
    if (readAt === this.changes) this.known = entry;
    return entry;
  }

  /**
   * Records what an attached socket shows. A report for a socket already detached (it closed while
   * the report travelled) or older than the one stored (two changes crossed) is dropped.
   */
  view(shardId: string, socketId: string, conversationId: string | null, seq: number): Promise<void> {
    return this.counters.track(() => this.viewHere(shardId, socketId, conversationId, seq));
  }

  private async viewHere(shardId: string, socketId: string, conversationId: string | null, seq: number) {
    const socket = `${shardId}:${socketId}`;
    const [attachedAt, stored] = await Promise.all([
      this.ctx.storage.get<number>(`${PREFIX}${socket}`),
      this.ctx.storage.get<Viewing>(`${VIEWING}${socket}`),
    ]);
    if (attachedAt === undefined || (stored && stored.seq >= seq)) return;
    this.changed();
    await this.ctx.storage.put(`${VIEWING}${socket}`, { conversationId, seq } satisfies Viewing);
  }
}
