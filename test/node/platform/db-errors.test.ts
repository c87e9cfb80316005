// The driver's own error classes, built as the driver builds them, so a rename in a driver update fails here.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from '../../../worker/platform/db/errors';

// Not exported from the package's entry point: taken from the module the driver throws them from.
type PoolErrorClass = new (pool: { address: string }) => Error;
const { PoolClearedError, PoolClearedOnNetworkError } = createRequire(import.meta.url)('mongodb/lib/cmap/errors') as {
  PoolClearedError: PoolErrorClass;
  PoolClearedOnNetworkError: PoolErrorClass;
};

describe('isDatabaseUnreachable', () => {
  it('counts an operation interrupted by a cleared pool as the database being unreachable (503, not 500)', () => {
    const interrupted = new PoolClearedOnNetworkError({ address: '127.0.0.1:27017' });
    expect(interrupted.message).toContain('interrupted due to server monitor timeout');
    expect(isDatabaseUnreachable(interrupted)).toBe(true);
    expect(isDatabaseUnreachable(new PoolClearedError({ address: '127.0.0.1:27017' }))).toBe(true);
  });

  it('counts a broken connection the driver let through unwrapped (EPIPE from a socket the database ended)', () => {
    const broken = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
    expect(isDatabaseUnreachable(broken)).toBe(true);
    expect(isDatabaseUnreachable(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(true);
    // A server error's numeric code is not a socket code.
    expect(isDatabaseUnreachable(Object.assign(new Error('dup'), { name: 'MongoServerError', code: 11000 }))).toBe(
      false,
    );
  });

  it('leaves query errors alone', () => {
    expect(isDatabaseUnreachable(Object.assign(new Error('bad $match'), { name: 'MongoServerError' }))).toBe(false);
    expect(isDatabaseUnreachable(new TypeError('x'))).toBe(false);
  });
});
