import type { Document } from 'mongodb';

/**
 * Aggregation expressions that read a stored value the way worker/platform/db/stored-values.ts does, for update
 * pipelines that must change documents older code wrote, in one atomic write: `$inc` and `$add` fail on a counter
 * stored as `"12"`, and array operators fail on a list stored as a single value.
 */

/**
 * The number stored at `path` (`'$counts.love'`), as readNumber reads it: a number as it is (its BSON type kept,
 * Int64 and Decimal128 included), a numeric string (spaces around it allowed) as its value, anything else
 * (missing, null, an unusable string, an array) as `fallback`.
 */
export function storedNumber(path: string, fallback: number | null = 0): Document {
  return {
    $cond: [
      { $isNumber: path },
      path,
      {
        $convert: {
          input: { $cond: [{ $eq: [{ $type: path }, 'string'] }, { $trim: { input: path } }, path] },
          to: 'double',
          onError: fallback,
          onNull: fallback,
        },
      },
    ],
  };
}

/** `storedNumber(path)` plus `by`: the atomic `$inc` of a counter whatever type older code stored it as. */
export function incrementedNumber(path: string, by: number): Document {
  return { $add: [storedNumber(path), by] };
}

/** The list stored at `path`: an array as it is, a single text as a list of it, anything else as empty. */
export function storedList(path: string): Document {
  return {
    $cond: [{ $isArray: path }, path, { $cond: [{ $eq: [{ $type: path }, 'string'] }, [path], []] }],
  };
}

/** The texts of the list stored at `path` (as `storedList`), other items left out: safe for `$toLower` and `$setUnion`. */
export function storedTexts(path: string): Document {
  return { $filter: { input: storedList(path), cond: { $eq: [{ $type: '$$this' }, 'string'] } } };
}
