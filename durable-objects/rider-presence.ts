import { DurableObject } from 'cloudflare:workers';

const PREFIX = 'socket:';

/**
 * The directory entry of one rider (one object per rider id): which socket shards hold their
 * connections, so an event for them goes to those shards only (docs/realtime.md, Topology).
 * It records sockets, not shards, so one device leaving and another arriving on the same shard,
 * reported in either order, leave the shard listed.
 */
export class RiderPresence extends DurableObject {
  async attach(shardId: string, socketId: string): Promise<void> {
    await this.ctx.storage.put(`${PREFIX}${shardId}:${socketId}`, Date.now());
  }

  async detach(shardId: string, socketId: string): Promise<void> {
    await this.ctx.storage.delete(`${PREFIX}${shardId}:${socketId}`);
  }

  /**
   * Forgets the sockets a shard said it does not hold (it restarted without closing them), as of
   * `askedAt`: a socket that attached after the shard was asked stays.
   */
  async detachShard(shardId: string, askedAt: number): Promise<void> {
    const entries = await this.ctx.storage.list<number>({ prefix: `${PREFIX}${shardId}:` });
    const stale = [...entries].filter(([, attachedAt]) => attachedAt < askedAt).map(([key]) => key);
    if (stale.length) await this.ctx.storage.delete(stale);
  }

  /** The shards holding at least one of this rider's sockets. */
  async shards(): Promise<string[]> {
    const keys = (await this.ctx.storage.list({ prefix: PREFIX })).keys();
    return [...new Set([...keys].map((key) => key.slice(PREFIX.length, key.lastIndexOf(':'))))];
  }
}
