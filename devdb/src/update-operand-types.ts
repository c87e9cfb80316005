import { fail } from './errors.js';
import { bsonTypeOf, type Doc, formatValue, isPlainObject } from './values.js';

// mongod refuses an update operator meeting a stored value of the wrong type (a counter kept as text under `$inc`,
// an object under `$push`); mingo skips the field instead, which would hide such a write from the tests.

const NUMERIC_OPERATORS = ['$inc', '$mul'] as const;
const ARRAY_OPERATORS = ['$push', '$addToSet', '$pull', '$pullAll'] as const;
const NUMERIC_BSON = new Set(['Int32', 'Long', 'Double', 'Decimal128']);
const ABSENT: unique symbol = Symbol('absent');

/** The value a dotted path of plain names reaches through documents; ABSENT when it is missing or not plain. */
function storedAt(doc: Doc, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    // Positional and index steps, and arrays on the way, are left to mingo.
    if (part.startsWith('$') || /^\d+$/.test(part) || !isPlainObject(value) || !Object.hasOwn(value, part)) {
      return ABSENT;
    }
    value = value[part];
  }
  return value;
}

/** mongod's name of a value's type in these messages. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  const bson = typeof value === 'object' ? bsonTypeOf(value) : undefined;
  return bson ? bson.charAt(0).toLowerCase() + bson.slice(1) : 'object';
}

const isNumeric = (value: unknown) =>
  typeof value === 'number' ||
  (typeof value === 'object' && value !== null && NUMERIC_BSON.has(bsonTypeOf(value) ?? ''));

/** Refuses the update as mongod does when one of its numeric or array operators meets a value of another type. */
export function checkOperandTypes(doc: Doc, modifier: Doc): void {
  const id = `{_id: ${formatValue(doc._id)}}`;
  for (const op of NUMERIC_OPERATORS) {
    const fields = modifier[op];
    if (!isPlainObject(fields)) continue;
    for (const path of Object.keys(fields)) {
      const value = storedAt(doc, path);
      if (value === ABSENT || isNumeric(value)) continue;
      const field = path.split('.').pop();
      fail(
        'TypeMismatch',
        `Cannot apply ${op} to a value of non-numeric type. ${id} has the field '${field}' of non-numeric type ${typeName(value)}`,
      );
    }
  }
  for (const op of ARRAY_OPERATORS) {
    const fields = modifier[op];
    if (!isPlainObject(fields)) continue;
    for (const path of Object.keys(fields)) {
      const value = storedAt(doc, path);
      if (value === ABSENT || Array.isArray(value)) continue;
      if (op === '$pull' || op === '$pullAll') fail('BadValue', `Cannot apply ${op} to a non-array value`);
      fail('BadValue', `The field '${path}' must be an array but is of type ${typeName(value)} in document ${id}`);
    }
  }
}
