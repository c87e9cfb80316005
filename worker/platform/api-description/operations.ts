/** The parts of an OpenAPI document the finishing pass reads and completes. */
type Parameter = { in?: string; required?: boolean; schema?: { type?: string | string[] } };
type Operation = { operationId?: string; parameters?: Parameter[] };
type ApiDocument = { paths?: Record<string, Record<string, unknown>> };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The operationId a route gets from its method and full path: each path segment's words joined in camelCase,
 * a parameter as `By<Name>`, so it stays as stable as the path itself.
 * @example operationIdOf('post', '/api/admin/socket-shards/{index}/reset') === 'postApiAdminSocketShardsByIndexReset'
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment);
      const parts = (parameter ? parameter[1]! : segment).split(/[^A-Za-z0-9]+/).filter(Boolean);
      return parameter ? ['By', ...parts] : parts;
    });
  return method.toLowerCase() + words.map(capitalised).join('');
}

/**
 * Completes what zod-to-openapi leaves open: every operation gets an operationId (a route's own wins),
 * and a path parameter is always required and never null, which a coercing schema (z.coerce.number) does not say.
 * Throws when two operations would share an operationId, so the document never ships ambiguous.
 */
export function completeOperations<D extends ApiDocument>(document: D): D {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      operation.operationId ??= operationIdOf(method, path);
      const other = seen.get(operation.operationId);
      if (other) throw new Error(`operationId ${operation.operationId} names both ${other} and ${method} ${path}`);
      seen.set(operation.operationId, `${method} ${path}`);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path') continue;
        parameter.required = true;
        const type = parameter.schema?.type;
        if (Array.isArray(type)) {
          const present = type.filter((t) => t !== 'null');
          parameter.schema!.type = present.length === 1 ? present[0] : present;
        }
      }
    }
  }
  return document;
}
