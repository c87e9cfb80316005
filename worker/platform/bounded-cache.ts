/**
 * A map holding at most `maxEntries` values, each answered for `ttlMs` after it was stored: when full,
 * the least recently used goes first, so keys a client chooses cannot grow it without limit.
 */
export class BoundedCache<V> {
  // A Map iterates in insertion order; a hit is re-inserted, so the first key is the least recently used.
  private readonly entries = new Map<string, { value: V; storedAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value stored under `key` less than `ttlMs` ago; an older one is forgotten. */
  get(key: string): V | undefined {
    const found = this.entries.get(key);
    if (!found) return undefined;
    this.entries.delete(key);
    if (this.now() - found.storedAt >= this.ttlMs) return undefined;
    this.entries.set(key, found);
    return found.value;
  }

  /** Forgets every key `stale` answers true for: values that a change elsewhere made wrong before their time. */
  forgetWhere(stale: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (stale(key)) this.entries.delete(key);
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt: this.now() });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }
}
