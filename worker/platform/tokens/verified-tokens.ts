import { BoundedCache } from '../bounded-cache';

/** The signing secrets a token was verified under (./token.ts SigningKeys). */
type Keys = { current: string; previous?: string };

/** A verified token as remembered: what verifying it answered, and its `exp` (seconds since the epoch) when it has one. */
interface Remembered<V> {
  verified: V;
  exp?: number;
}

/**
 * The tokens an isolate verified under one pair of signing secrets, bounded: a rider sends the same token on every
 * request, and its signature, key id and claims cannot change while the secrets stay. A change of secrets forgets all.
 * Only verified tokens are kept, so a client sending made-up tokens only evicts, and costs what it did before.
 */
export class VerifiedTokens<V> {
  private cache: BoundedCache<Remembered<V>>;
  private current = '';
  private previous: string | undefined;

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
    // Read through Date each time, so a clock set later (a test's) is the one asked.
    private readonly now: () => number = () => Date.now(),
  ) {
    this.cache = new BoundedCache(maxEntries, ttlMs, now);
  }

  get size(): number {
    return this.cache.size;
  }

  /** What was remembered of `token` under these secrets: the token, 'expired' once past its `exp`, or undefined. */
  get(token: string, keys: Keys): V | 'expired' | undefined {
    if (!this.sameKeys(keys)) return undefined;
    const found = this.cache.get(token);
    if (!found) return undefined;
    // As jose decides: expired once `exp` is at or before the current second.
    if (found.exp !== undefined && found.exp <= Math.floor(this.now() / 1000)) return 'expired';
    return found.verified;
  }

  set(token: string, keys: Keys, verified: V, exp?: number): void {
    if (!this.sameKeys(keys)) {
      this.cache = new BoundedCache(this.maxEntries, this.ttlMs, this.now);
      this.current = keys.current;
      this.previous = keys.previous;
    }
    this.cache.set(token, exp === undefined ? { verified } : { verified, exp });
  }

  private sameKeys(keys: Keys): boolean {
    return keys.current === this.current && keys.previous === this.previous;
  }
}
