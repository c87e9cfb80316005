import { Context, Query } from 'mingo';
import type { Options } from 'mingo/types';
import { type ErrorCodeName, fail } from './errors.js';
import { type Doc, isPlainObject } from './values.js';

/**
 * `arrayFilters` as mongod parses them: each filter document is about one identifier (the first segment of its
 * field paths, also inside top-level `$and`/`$or`/`$nor`), each identifier has one filter, and the update uses
 * every identifier it is given filters for and has a filter for every identifier it uses.
 */

/** The query operator that runs a whole filter document as the condition on its identifier (update queries only). */
const WHOLE_FILTER = '$devdbArrayFilter';

const LOGICAL = new Set(['$and', '$or', '$nor']);

/** mongod's prefix for an error found while parsing one filter. */
const CAUSED = 'Error parsing array filter :: caused by :: ';

/** What mongod's parser bans in array filters (kBanAllSpecialFeatures), at a filter's top level or in its clauses. */
const BANNED_OPERATORS = new Map<string, [ErrorCodeName, string]>([
  ['$expr', ['QueryFeatureNotAllowed', '$expr is not allowed in this context']],
  ['$jsonSchema', ['QueryFeatureNotAllowed', '$jsonSchema is not allowed in this context']],
  ['$where', ['BadValue', '$where is not allowed in this context']],
  ['$text', ['BadValue', '$text is not allowed in this context']],
]);

/** Conditions on a field that need a sorted geo scan, which no array filter runs. */
const NEAR = new Set(['$near', '$nearSphere', '$geoNear']);

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
  // Without the option the update's `$[x]` paths are still checked, against no filters.
  const filters = raw ?? [];
  if (!Array.isArray(filters))
    fail('TypeMismatch', "BSON field 'arrayFilters' is the wrong type, expected type 'array'");
  const byIdentifier = new Map<string, Doc>();
  for (const filter of filters) {
    if (!isPlainObject(filter))
      fail('TypeMismatch', "BSON field 'arrayFilters' is the wrong type, expected an array of objects");
    refuseBannedFeatures(filter);
    const identifier = identifierOf(filter);
    if (identifier === undefined)
      fail('FailedToParse', 'Cannot use an expression without a top-level field name in arrayFilters');
    if (!/^[a-z][a-zA-Z0-9]*$/.test(identifier)) {
      fail(
        'BadValue',
        `${CAUSED}The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${identifier}'`,
      );
    }
    if (byIdentifier.has(identifier))
      fail('FailedToParse', `Found multiple array filters with the same top-level field name ${identifier}`);
    byIdentifier.set(identifier, filter);
  }
  if (Array.isArray(u)) {
    if (byIdentifier.size > 0) fail('FailedToParse', 'arrayFilters may not be specified for pipeline-syle updates');
    return undefined;
  }
  // A replacement never reads them.
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

/** Refuses what mongod's parser bans in a filter, in the order it meets them: fields in order, clauses depth first. */
function refuseBannedFeatures(filter: Doc): void {
  for (const [key, value] of Object.entries(filter)) {
    const banned = BANNED_OPERATORS.get(key);
    if (banned) fail(banned[0], CAUSED + banned[1]);
    if (LOGICAL.has(key)) {
      for (const clause of Array.isArray(value) ? value : []) if (isPlainObject(clause)) refuseBannedFeatures(clause);
    } else if (!key.startsWith('$') && isPlainObject(value) && Object.keys(value).some((op) => NEAR.has(op))) {
      fail('Location5626500', `${CAUSED}$geoNear, $near, and $nearSphere are not allowed in this context`);
    }
  }
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
      fail('FailedToParse', `${CAUSED}Expected a single top-level field name, found '${found}' and '${identifier}'`);
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
