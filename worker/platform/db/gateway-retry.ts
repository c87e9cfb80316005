/** Commands that only read: the others (an `insert`, say) are writes, and may have run before the object failed. */
const READ_COMMANDS = new Set([
  'ping',
  'hello',
  'isMaster',
  'buildInfo',
  'serverStatus',
  'dbStats',
  'listCollections',
  'listIndexes',
]);

/** A call that may run again on another object: reads always; writes only if the object refused it unrun (overloaded). */
export function mayRetry(method: string, values: unknown[], err: unknown): boolean {
  const reads = ['find', 'aggregate', 'findOne', 'countDocuments', 'estimatedDocumentCount', 'distinct'];
  const command =
    method === 'command' && READ_COMMANDS.has(Object.keys((values[0] as object | undefined) ?? {})[0] ?? '');
  return reads.includes(method) || command || (err as { overloaded?: boolean }).overloaded === true;
}
