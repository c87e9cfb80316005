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
  // No gateway object answered (worker/db/gateway-store.ts).
  'DatabaseGatewayUnavailableError',
]);

export function isDatabaseUnreachable(err: unknown): boolean {
  return err instanceof Error && UNREACHABLE.has(err.name);
}

/** A unique-index violation (E11000), as MongoDB and the dev server report it. */
export function isDuplicateKey(err: unknown): err is { code: 11000; keyValue?: Record<string, unknown> } {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/** Which unique field a duplicate-key error is about; a server that omits keyValue names none. */
export function duplicateField(err: unknown): string | undefined {
  return isDuplicateKey(err) ? Object.keys(err.keyValue ?? {})[0] : undefined;
}
