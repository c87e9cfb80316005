import { DurableObject } from 'cloudflare:workers';
import { LIMITS } from '../worker/platform/limits';

/** One Analytics Engine data point as the stand-in keeps it, with the time it arrived. */
export interface StoredDataPoint {
  at: number;
  blobs: (string | null)[];
  doubles: number[];
  indexes: (string | null)[];
}

// Keys sort by arrival time, so the oldest points are the first listed and the first dropped.
const keyOf = (at: number, seq: number) => `p:${String(at).padStart(15, '0')}:${String(seq).padStart(9, '0')}`;
// The most keys one storage.delete() takes.
const DELETE_BATCH = 128;

/**
 * LOCAL ONLY: what Workers Analytics Engine would hold, for `npm run dev`, the test stacks and the Worker tests
 * (bound as METRICS_STAND_IN in their configurations, never in wrangler.toml's production or staging). Miniflare's
 * own METRICS binding discards every point and nothing reads Analytics Engine locally, so /admin/ops reads this.
 * One object holds the last hour, at most LIMITS.ops.standInPointsMax points; storage keeps them across eviction.
 */
export class MetricsStandIn extends DurableObject {
  private points: (StoredDataPoint & { key: string })[] = [];
  private seq = 0;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.list<StoredDataPoint>({ prefix: 'p:' });
      this.points = [...stored].map(([key, point]) => ({ key, ...point }));
    });
  }

  /** Keeps one point, dropping what is older than the window or beyond the cap. */
  async write(point: Omit<StoredDataPoint, 'at'>): Promise<void> {
    const at = Date.now();
    const key = keyOf(at, this.seq++);
    const stored = { at, blobs: point.blobs, doubles: point.doubles, indexes: point.indexes };
    this.points.push({ key, ...stored });
    await this.ctx.storage.put(key, stored);
    await this.drop(at);
  }

  /** The points of the last hour, oldest first. */
  async recent(): Promise<StoredDataPoint[]> {
    await this.drop(Date.now());
    return this.points.map(({ key: _key, ...point }) => point);
  }

  private async drop(now: number): Promise<void> {
    const cutoff = now - LIMITS.ops.figuresWindowMs;
    let count = 0;
    while (
      count < this.points.length &&
      (this.points[count]!.at < cutoff || this.points.length - count > LIMITS.ops.standInPointsMax)
    )
      count++;
    if (count === 0) return;
    const dropped = this.points.splice(0, count).map((p) => p.key);
    for (let i = 0; i < dropped.length; i += DELETE_BATCH)
      await this.ctx.storage.delete(dropped.slice(i, i + DELETE_BATCH));
  }
}
