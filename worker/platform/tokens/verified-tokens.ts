import { BoundedCache } from '../bounded-cache';
import type { SigningKeys, VerifiedToken } from './token';

/** A verified token as remembered: its claims and session, and its `exp` (seconds since the epoch) when it has one. */
interface Remembered {
  verified: VerifiedToken;
  exp?: number;
}

/**
 * The tokens an isolate verified under one pair of signing secrets, bounded: a rider sends the same token on every
 * request, and its signature, key id and claims cannot change while the secrets stay. A change of secrets forgets all.
 * Only verified tokens are kept, so a client sending made-up tokens only evicts, and costs what it did before.
 */
export class VerifiedTokens {
  private cache: BoundedCache<Remembered>;
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
  get(token: string, keys: SigningKeys): VerifiedToken | 'expired' | undefined {
    if (!this.sameKeys(keys)) return undefined;
    const found = this.cache.get(token);
    if (!found) return undefined;
    // As jose decides: expired once `exp` is at or before the current second.
    if (found.exp !== undefined && found.exp <= Math.floor(this.now() / 1000)) return 'expired';
    return found.verified;
  }

  set(token: string, keys: SigningKeys, verified: VerifiedToken, exp?: number): void {
    if (!this.sameKeys(keys)) {
      this.cache = new BoundedCache(this.maxEntries, this.ttlMs, this.now);
      this.current = keys.current;
      this.previous = keys.previous;
    }
    this.cache.set(token, exp === undefined ? { verified } : { verified, exp });
  }

  private sameKeys(keys: SigningKeys): boolean {
    return keys.current === this.current && keys.previous === this.previous;
  }
}
