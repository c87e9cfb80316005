/**
 * An aggregation expression that reads a stored number as readNumber (worker/platform/db/stored-values.ts) does:
 * a number, a numeric string (spaces around it allowed), an Int64 or a Decimal128 as its value; missing, null or
 * anything else as `otherwise`. Update pipelines add to counters older code stored as text with it
 * (`{ $add: [storedNumber('$attempts'), 1] }`), in the same single write as for a numeric one.
 */
export function storedNumber(path: `$${string}`, otherwise: number | null = 0) {
  return {
    $convert: {
      input: { $cond: [{ $eq: [{ $type: path }, 'string'] }, { $trim: { input: path } }, path] },
      to: 'double',
      onError: otherwise,
      onNull: otherwise,
    },
  };
}
