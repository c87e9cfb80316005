/** Driver errors that mean "the database cannot be reached", as opposed to a bad query. */
const UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  // The driver cleared its pool (a failed heartbeat: the server stopped answering) and interrupted the
  // operations in flight on it: the same outage seen from an operation already sent.
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  // A client-side operation timeout: a server that stopped answering.
  'MongoOperationTimeoutError',
  // No gateway object answered (worker/platform/db/gateway-store.ts).
  'DatabaseGatewayUnavailableError',
  // A raw insert the server could not confirm (worker/platform/db/insert-keeping-first.ts): resending is safe.
  'DatabaseWriteUnconfirmedError',
]);

/**
 * Socket errors the driver lets through unwrapped: under load workerd's node:net answers a write to a
 * connection the database side already ended with a plain Error coded EPIPE ("This socket has been ended
 * by the other party"), seen as a 500 while the database was cut (bench/scale). The connection broke: 503.
 */
const BROKEN_CONNECTION_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ERR_SOCKET_CLOSED']);

export function isDatabaseUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return UNREACHABLE.has(err.name) || (typeof code === 'string' && BROKEN_CONNECTION_CODES.has(code));
}

/** A unique-index violation (E11000), as MongoDB and the dev server report it. */
export function isDuplicateKey(err: unknown): err is { code: 11000; keyValue?: Record<string, unknown> } {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/**
 * Runs a write guarded by a unique index and, when the index refuses it (E11000), answers `onDuplicate(err)`
 * instead: run the upsert again (two first writes raced; the loser now finds the winner's row and updates it),
 * take the duplicate as already stored, or name what was taken. Any other error is thrown.
 * @example await onDuplicateKey(write, write) // an upsert that may lose the race to insert
 */
export async function onDuplicateKey<T, R>(
  write: () => Promise<T>,
  onDuplicate: (err: { code: 11000; keyValue?: Record<string, unknown> }) => R | Promise<R>,
): Promise<T | R> {
  try {
    return await write();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    return onDuplicate(err);
  }
}

/** Which unique field a duplicate-key error is about; a server that omits keyValue names none. */
export function duplicateField(err: unknown): string | undefined {
  return isDuplicateKey(err) ? Object.keys(err.keyValue ?? {})[0] : undefined;
}
