import { Query } from 'mingo';
import type { Options } from 'mingo/types';
import { compare, isNil, normalize, typeOf } from 'mingo/util';
import { isTaggedScalar, scalarMembership, scalarTag } from './group-keys.js';
import { plainName } from './paths.js';
import { type Doc, isPlainObject } from './values.js';

/**
 * A query filter compiled into plain functions where mingo's answer is known without running it: each top-level
 * condition of a field reached through documents (no arrays on the way) tests a scalar, a missing or a null value
 * directly; arrays, embedded documents, other BSON types and operators not listed here go to a mingo Query of that
 * one condition. mingo's Query of the whole filter is still built first, so a bad filter fails with mingo's error.
 */
export function compileQuery(filter: Doc, options: Partial<Options>): (doc: Doc) => boolean {
  new Query(filter, options);
  return conjunction(filter, options);
}

type Test = (doc: Doc) => boolean;

/** The path crosses something that is not a document (mingo fans out over arrays): mingo answers. */
const OTHER = Symbol('other');

function conjunction(filter: Doc, options: Partial<Options>): Test {
  const tests = Object.keys(filter).map((key) => condition(key, filter[key], options));
  if (tests.length === 1) return tests[0]!;
  return (doc) => {
    for (const test of tests) if (!test(doc)) return false;
    return true;
  };
}

function condition(key: string, value: unknown, options: Partial<Options>): Test {
  const byMingo = () => {
    const query = new Query({ [key]: value } as Doc, options);
    return (doc: Doc) => query.test(doc);
  };
  if (key === '$and' || key === '$or') {
    if (!Array.isArray(value) || !value.every(isPlainObject)) return byMingo();
    const branches = value.map((branch) => conjunction(branch, options));
    return key === '$and' ? (doc) => branches.every((t) => t(doc)) : (doc) => branches.some((t) => t(doc));
  }
  const path = plainPath(key);
  if (!path) return byMingo();
  const normalized = normalize(value) as Doc;
  const tests: ValueTest[] = [];
  for (const [op, operand] of Object.entries(normalized)) {
    const test = valueTest(op, operand, path.length > 1);
    if (!test) return byMingo();
    tests.push(test);
  }
  const fallback = byMingo();
  return (doc) => {
    const v = valueAt(doc, path);
    if (v === OTHER) return fallback(doc);
    for (const test of tests) {
      const answer = test(v);
      if (answer === undefined) return fallback(doc);
      if (!answer) return false;
    }
    return true;
  };
}

/** True or false as mingo answers for the value, or undefined when mingo must answer. */
type ValueTest = (v: unknown) => boolean | undefined;

/** The segments of a path made of ordinary names (no `$`, no array index, nothing Object.prototype holds). */
function plainPath(key: string): string[] | undefined {
  const parts = key.split('.');
  return parts.every(plainName) ? parts : undefined;
}

/** The value at `path` through documents (undefined where one lacks the next name), else OTHER. */
function valueAt(doc: Doc, path: string[]): unknown {
  let value: unknown = doc;
  for (const part of path) {
    if (value === undefined) return undefined;
    if (!isPlainObject(value)) return OTHER;
    // A plain name is never inherited from Object.prototype: an absent one reads undefined.
    value = value[part];
  }
  return value;
}

/** A value the tests below compare whole: missing, null, a string, number, boolean, date or ObjectId. */
const isScalar = (v: unknown) => v === null || isTaggedScalar(v);

const RANGES: Record<string, (c: number) => boolean> = {
  $gt: (c) => c > 0,
  $gte: (c) => c >= 0,
  $lt: (c) => c < 0,
  $lte: (c) => c <= 0,
};

/** An operand an equality compares exactly through scalarTag (null and missing handled apart). */
const comparable = (v: unknown) => v !== undefined && (v === null || scalarTag(v) !== undefined);

/**
 * The test of one operator for a value that is a scalar, null, or undefined for a missing field (mingo's
 * predicates on a value that is not an array), or undefined when devdb does not compile it.
 */
function valueTest(op: string, operand: unknown, nested: boolean): ValueTest | undefined {
  if (op === '$regex') return regexTest(operand);
  const test = scalarTest(op, operand, nested);
  return test && ((v) => (isScalar(v) ? test(v) : undefined));
}

/** `$regex` over a string, or over an array of strings (true when one matches); mingo for other arrays. */
function regexTest(operand: unknown): ValueTest | undefined {
  if (!(operand instanceof RegExp) || operand.global || operand.sticky) return undefined;
  const prefix = literalPrefix(operand);
  const matches = prefix !== undefined ? (s: string) => s.startsWith(prefix) : (s: string) => operand.test(s);
  return (v) => {
    if (typeof v === 'string') return matches(v);
    if (Array.isArray(v)) return v.every((s) => typeof s === 'string') ? v.some(matches) : undefined;
    return isScalar(v) ? false : undefined;
  };
}

function scalarTest(op: string, operand: unknown, nested: boolean): ((v: unknown) => boolean) | undefined {
  switch (op) {
    case '$eq':
    case '$ne': {
      if (!comparable(operand)) return undefined;
      const same = scalarMembership([operand]);
      const equal = (v: unknown) => (isNil(v) ? operand === null : same(v));
      return op === '$eq' ? equal : (v) => !equal(v);
    }
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand) || !operand.every(comparable)) return undefined;
      const member = scalarMembership(operand.filter((x) => x !== null));
      const hasNull = operand.includes(null);
      const within = (v: unknown) => (isNil(v) ? hasNull : member(v));
      return op === '$in' ? within : (v) => !within(v);
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      // mingo's comparison of a value that is not an array: false across types, else its `compare`.
      const holds = RANGES[op]!;
      const type = typeOf(operand);
      return (v) => typeOf(v) === type && holds(compare(v, operand));
    }
    case '$exists':
      // A dotted path's $exists walks the parent graph in mingo.
      if (nested) return undefined;
      return (v) => (v !== undefined) === !!operand;
    case '$type':
      return operand === 'string' || operand === 2 ? (v) => typeof v === 'string' : undefined;
    default:
      return undefined;
  }
}

/** The text an anchored pattern of plain characters (`^abc`, escapes of punctuation allowed) must start with. */
export function literalPrefix(re: RegExp): string | undefined {
  if (re.flags !== '' || !re.source.startsWith('^')) return undefined;
  let out = '';
  const source = re.source;
  for (let i = 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined;
      out += next;
      i++;
    } else if ('^$.|?*+()[]{}'.includes(c)) {
      return undefined;
    } else {
      out += c;
    }
  }
  return out;
}
