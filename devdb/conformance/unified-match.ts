// The unified test format's "Evaluating Matches" rules (mongodb/specifications, source/unified-test-format).
import { BSON } from 'bson';

type Doc = Record<string, unknown>;

export class MatchError extends Error {}

/** Documents include the driver's own classes in commands (ReadConcern, sort Maps), not BSON values. */
function isDoc(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  if (v instanceof Date || v instanceof RegExp || ArrayBuffer.isView(v)) return false;
  return bsonType(v) === undefined;
}

function asDoc(v: unknown): unknown {
  return v instanceof Map ? Object.fromEntries(v) : v;
}

function bsonType(v: unknown): string | undefined {
  return v !== null && typeof v === 'object' ? (v as { _bsontype?: string })._bsontype : undefined;
}

/** Numbers of any width compare by value (flexible numerics); Decimal128 does not. */
function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  const t = bsonType(v);
  if (t === 'Long') return (v as { toNumber(): number }).toNumber();
  if (t === 'Int32' || t === 'Double') return Number((v as { valueOf(): unknown }).valueOf());
  return undefined;
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  double: (v) => typeof v === 'number' || bsonType(v) === 'Double',
  string: (v) => typeof v === 'string',
  object: (v) => isDoc(v),
  array: (v) => Array.isArray(v),
  binData: (v) => bsonType(v) === 'Binary',
  objectId: (v) => bsonType(v) === 'ObjectId',
  bool: (v) => typeof v === 'boolean',
  date: (v) => v instanceof Date,
  null: (v) => v === null,
  regex: (v) => v instanceof RegExp || bsonType(v) === 'BSONRegExp',
  int: (v) => (typeof v === 'number' && Number.isInteger(v)) || bsonType(v) === 'Int32',
  timestamp: (v) => bsonType(v) === 'Timestamp',
  long: (v) => bsonType(v) === 'Long' || (typeof v === 'number' && Number.isInteger(v)),
  decimal: (v) => bsonType(v) === 'Decimal128',
  number: (v) => asNumber(v) !== undefined,
};

function show(v: unknown): string {
  try {
    return JSON.stringify(BSON.EJSON.serialize({ v }, { relaxed: true }).v);
  } catch {
    return String(v);
  }
}

function special(expected: unknown): [string, unknown] | undefined {
  if (!isDoc(expected)) return undefined;
  const keys = Object.keys(expected);
  if (keys.length === 1 && keys[0]!.startsWith('$$')) return [keys[0]!, expected[keys[0]!]];
  return undefined;
}

export interface MatchContext {
  entities: Map<string, unknown>;
}

/** Throws MatchError describing the first difference; `root` allows extra keys in `actual`. */
export function assertMatches(expected: unknown, raw: unknown, ctx: MatchContext, root = true, path = ''): void {
  const actual = asDoc(raw);
  const op = special(expected);
  if (op) {
    runOperator(op[0], op[1], actual, ctx, root, path);
    return;
  }
  if (isDoc(expected)) {
    if (!isDoc(actual)) throw new MatchError(`${path || 'value'}: expected a document, got ${show(actual)}`);
    for (const [key, value] of Object.entries(expected)) {
      const keyOp = special(value);
      const here = `${path}.${key}`;
      if (keyOp && keyOp[0] === '$$exists') {
        if (keyOp[1] !== key in actual) throw new MatchError(`${here}: expected exists=${String(keyOp[1])}`);
        continue;
      }
      if (keyOp && keyOp[0] === '$$unsetOrMatches') {
        if (!(key in actual) || actual[key] === undefined) continue;
        assertMatches(keyOp[1], actual[key], ctx, false, here);
        continue;
      }
      if (!(key in actual)) throw new MatchError(`${here}: missing in ${show(actual)}`);
      assertMatches(value, actual[key], ctx, false, here);
    }
    if (!root) {
      const extra = Object.keys(actual).filter((k) => !(k in expected));
      if (extra.length) throw new MatchError(`${path}: unexpected keys ${extra.join(', ')} in ${show(actual)}`);
    }
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) throw new MatchError(`${path || 'value'}: expected an array, got ${show(actual)}`);
    if (actual.length !== expected.length) {
      throw new MatchError(`${path || 'value'}: expected ${show(expected)}, got ${show(actual)}`);
    }
    for (const [i, e] of expected.entries()) assertMatches(e, actual[i], ctx, false, `${path}[${i}]`);
    return;
  }
  assertScalar(expected, actual, path);
}

function assertScalar(expected: unknown, actual: unknown, path: string): void {
  const en = asNumber(expected);
  if (en !== undefined) {
    const an = asNumber(actual);
    if (an === en || (Number.isNaN(an) && Number.isNaN(en))) return;
    throw new MatchError(`${path || 'value'}: expected ${show(expected)}, got ${show(actual)}`);
  }
  if (show(expected) !== show(actual) || bsonType(expected) !== bsonType(actual)) {
    throw new MatchError(`${path || 'value'}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

function runOperator(
  name: string,
  arg: unknown,
  actual: unknown,
  ctx: MatchContext,
  root: boolean,
  path: string,
): void {
  switch (name) {
    case '$$type': {
      const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
      if (!types.some((t) => TYPE_CHECKS[t]?.(actual))) {
        throw new MatchError(`${path}: expected type ${types.join('|')}, got ${show(actual)}`);
      }
      return;
    }
    case '$$unsetOrMatches':
      if (actual === undefined) return;
      assertMatches(arg, actual, ctx, root, path);
      return;
    case '$$exists':
      if (arg !== (actual !== undefined)) throw new MatchError(`${path}: expected exists=${String(arg)}`);
      return;
    case '$$matchesEntity':
      assertMatches(ctx.entities.get(String(arg)), actual, ctx, root, path);
      return;
    case '$$matchAsRoot':
      assertMatches(arg, actual, ctx, true, path);
      return;
    case '$$matchAsDocument':
      assertMatches(arg, BSON.EJSON.parse(String(actual)), ctx, false, path);
      return;
    case '$$lte': {
      const a = asNumber(actual);
      if (a === undefined || a > (asNumber(arg) ?? Number.NaN))
        throw new MatchError(`${path}: ${show(actual)} > ${show(arg)}`);
      return;
    }
    case '$$sessionLsid':
      return;
    default:
      throw new MatchError(`unsupported match operator ${name}`);
  }
}
