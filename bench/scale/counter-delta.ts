/** One object's counters as GET /api/admin/object-counters reports them (durable-objects/object-counters.ts). */
export interface CounterRow {
  requests: number;
  wallMs: number;
  cpuMs: number;
  peakPerSecond: number;
  /** When this instance started counting: a new value means the object was evicted or restarted. */
  startedAt: number;
}

export type CounterDelta = Pick<CounterRow, 'requests' | 'wallMs' | 'cpuMs'>;

/**
 * What one object did between two readings. Counters live in memory, so an object that hibernated, was
 * evicted or restarted in between starts again from zero (its `startedAt` changed): then only what the
 * new instance counted is known, and that is what is returned (an undercount, never a negative figure).
 */
export function counterDelta(from: CounterRow | undefined, to: CounterRow): CounterDelta {
  const base = from && from.startedAt === to.startedAt ? from : { requests: 0, wallMs: 0, cpuMs: 0 };
  return { requests: to.requests - base.requests, wallMs: to.wallMs - base.wallMs, cpuMs: to.cpuMs - base.cpuMs };
}

/** The summed deltas of the objects of one kind, matched by name (or rider id) between the two readings. */
export function summedDelta<T extends CounterRow>(from: T[], to: T[], key: (row: T) => string): CounterDelta {
  const earlier = new Map(from.map((row) => [key(row), row]));
  return to.reduce<CounterDelta>(
    (total, row) => {
      const d = counterDelta(earlier.get(key(row)), row);
      return { requests: total.requests + d.requests, wallMs: total.wallMs + d.wallMs, cpuMs: total.cpuMs + d.cpuMs };
    },
    { requests: 0, wallMs: 0, cpuMs: 0 },
  );
}
