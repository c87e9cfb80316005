import { Context, Query } from 'mingo';
import type { Options } from 'mingo/types';
import { fail } from './errors.js';
import { type Doc, isPlainObject } from './values.js';

/**
 * `arrayFilters` as mongod parses them: each filter document is about one identifier (the first segment of its
 * field paths, also inside top-level `$and`/`$or`/`$nor`), each identifier has one filter, and the update uses
 * every identifier it is given filters for and has a filter for every identifier it uses.
 */

/** The query operator that runs a whole filter document as the condition on its identifier (update queries only). */
const WHOLE_FILTER = '$devdbArrayFilter';

const LOGICAL = new Set(['$and', '$or', '$nor']);

/**
 * mingo groups array filters by the first segment of each top-level field, so a top-level `$or` would have no
 * identifier: devdb hands mingo every filter as one condition on its identifier, `{x: {$devdbArrayFilter: filter}}`,
 * which tests the element as mingo does (`{x: [element]}`) against the whole filter.
 */
export const ARRAY_FILTER_CONTEXT = Context.init({
  query: {
    [WHOLE_FILTER]: (_selector: string, filter: Doc, options: Options) => {
      const query = new Query(filter, options);
      return (doc: Doc) => query.test(doc);
    },
  },
} as unknown as Parameters<typeof Context.init>[0]);

/**
 * The statement's `arrayFilters` checked against the update `u` and rewritten for mingo (see
 * ARRAY_FILTER_CONTEXT), or undefined when there are none. Errors carry mongod's codes and messages.
 */
export function parseArrayFilters(raw: unknown, u: unknown): Doc[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) fail('TypeMismatch', "BSON field 'arrayFilters' is the wrong type, expected type 'array'");
  const byIdentifier = new Map<string, Doc>();
  for (const filter of raw) {
    if (!isPlainObject(filter))
      fail('TypeMismatch', "BSON field 'arrayFilters' is the wrong type, expected an array of objects");
    const identifier = identifierOf(filter);
    if (identifier === undefined)
      fail('FailedToParse', 'Cannot use an expression without a top-level field name in arrayFilters');
    if (!/^[a-z][a-zA-Z0-9]*$/.test(identifier)) {
      fail(
        'BadValue',
        `Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${identifier}'`,
      );
    }
    if (byIdentifier.has(identifier))
      fail('FailedToParse', `Found multiple array filters with the same top-level field name ${identifier}`);
    byIdentifier.set(identifier, filter);
  }
  // Only update operators read them (a replacement or a pipeline never does).
  if (!isPlainObject(u) || !Object.keys(u)[0]?.startsWith('$')) return undefined;
  const used = new Set<string>();
  for (const fields of Object.values(u)) {
    for (const path of isPlainObject(fields) ? Object.keys(fields) : []) {
      for (const [, identifier] of path.matchAll(/\$\[([^\]]+)\]/g)) {
        if (!byIdentifier.has(identifier!))
          fail('BadValue', `No array filter found for identifier '${identifier}' in path '${path}'`);
        used.add(identifier!);
      }
    }
  }
  for (const identifier of byIdentifier.keys()) {
    if (!used.has(identifier)) {
      fail('FailedToParse', `The array filter for identifier '${identifier}' was not used in the update ${shown(u)}`);
    }
  }
  if (byIdentifier.size === 0) return undefined;
  return [...byIdentifier].map(([identifier, filter]) => ({ [identifier]: { [WHOLE_FILTER]: filter } }));
}

/**
 * The identifier a filter is about, as mongod finds it: a field path's first segment; for a logical operator (a
 * document of several fields is an implicit `$and`) the one its clauses share, clauses without one aside.
 */
function identifierOf(filter: Doc): string | undefined {
  let found: string | undefined;
  const share = (identifier: string | undefined) => {
    if (identifier === undefined) return;
    if (found !== undefined && found !== identifier) {
      fail(
        'FailedToParse',
        `Error parsing array filter :: caused by :: Expected a single top-level field name, found '${found}' and '${identifier}'`,
      );
    }
    found = identifier;
  };
  for (const [key, value] of Object.entries(filter)) {
    if (LOGICAL.has(key)) {
      for (const clause of Array.isArray(value) ? value : [])
        share(isPlainObject(clause) ? identifierOf(clause) : undefined);
    } else if (!key.startsWith('$')) {
      share(key.split('.')[0]);
    }
  }
  return found;
}

/** A document as mongod prints one in messages: `{ $set: { a.$[x]: true } }`. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return value.length ? `[ ${value.map(shown).join(', ')} ]` : '[]';
  if (isPlainObject(value)) {
    const fields = Object.entries(value).map(([k, v]) => `${k}: ${shown(v)}`);
    return fields.length ? `{ ${fields.join(', ')} }` : '{}';
  }
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
