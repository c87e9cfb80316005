import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { isDate, isEqual, isNil, isNumber, isObject, isOperator, MingoError, resolve, typeOf } from 'mingo/util';
import { pathReader } from './paths.js';
import { type Doc, isPlainObject } from './values.js';

/**
 * An aggregation expression compiled once per stage, for the operators the dashboards and experiment results
 * evaluate per document. Each compiled operator computes mingo's result for the common argument types and hands
 * the whole expression back to mingo for anything else (a missing value where mingo reports an error, an array
 * where mingo flattens...), so results and errors stay mingo's. Unknown operators and variables go to mingo too.
 * `scope` holds the variables of enclosing compiled `$let`s.
 */
export type Compiled = (doc: Doc, scope: Doc) => unknown;

/** The options mingo evaluates with, for the parts handed to it: fixed for a $group, per call for a stage field. */
interface Evaluation {
  options: Options;
}

export function compileExpression(expr: unknown, options: Options): (doc: Doc) => unknown {
  const run = compile(expr, { options }, new Set())!;
  const empty: Doc = {};
  return (doc) => run(doc, empty);
}

/** Stands for a compiled expression inside a stage mingo runs: `{$devdbCompiled: fn}`. */
export const COMPILED_OPERATOR = '$devdbCompiled';

/**
 * `expr` as `{$devdbCompiled: fn}`, for mingo's `$project`/`$addFields` to evaluate where it evaluates an
 * expression (the document as root and current document). Called anywhere else, it is mingo's evaluation.
 */
export function compiledForStage(expr: unknown): Doc {
  const evaluation = { options: undefined as unknown as Options };
  const run = compile(expr, evaluation, new Set())!;
  const empty: Doc = {};
  const fn = (doc: Doc, options: Options) => {
    const root = (options as unknown as { local?: { root?: unknown } }).local?.root;
    if (!isNil(root) && root !== doc) return evalExpr(doc, expr, options);
    const outer = evaluation.options;
    evaluation.options = options;
    try {
      return run(doc, empty);
    } finally {
      evaluation.options = outer;
    }
  };
  return { [COMPILED_OPERATOR]: fn };
}

/** The expression operator behind `{$devdbCompiled: fn}`. */
export function $devdbCompiled(doc: Doc, fn: unknown, options: Options): unknown {
  // A client's pipeline naming it gets what mingo answers for any operator it does not know.
  if (typeof fn !== 'function') throw new MingoError(`accumulator '${COMPILED_OPERATOR}' is not registered.`);
  return (fn as (doc: Doc, options: Options) => unknown)(doc, options);
}

/**
 * mingo's evaluation of `expr`; inside a compiled `$let`, mingo sees the variables `expr` reads through a `$let`
 * binding their values (as `$literal`s), as it would have bound them itself.
 */
function byMingoOf(expr: unknown, evaluation: Evaluation, bound: Set<string>): ByMingo {
  const names = [...bound].filter((name) => mentions(expr, new Set([name])));
  if (names.length === 0) return (doc) => evalExpr(doc, expr, evaluation.options);
  return (doc, scope) => {
    const vars = Object.fromEntries(names.map((name) => [name, { $literal: scope[name] }]));
    return evalExpr(doc, { $let: { vars, in: expr } }, evaluation.options);
  };
}

function compile(expr: unknown, evaluation: Evaluation, bound: Set<string>): Compiled | undefined {
  const byMingo = byMingoOf(expr, evaluation, bound);
  if (typeof expr === 'string') return expr.startsWith('$') ? (fieldPath(expr, bound) ?? byMingo) : () => expr;
  // mingo returns what is neither a string, an array nor an object as it is (numbers, dates, ObjectIds...).
  if (!Array.isArray(expr) && !isObject(expr)) return () => expr;
  if (Array.isArray(expr)) {
    // An array of expressions: a new array of their values, as mingo computes it.
    const items = compileAll(expr, (e) => compile(e, evaluation, bound));
    return items ? (doc, scope) => items.map((item) => item(doc, scope)) : byMingo;
  }
  if (!isPlainObject(expr)) return byMingo;
  const keys = Object.keys(expr);
  if (!isOperator(keys[0] ?? '')) {
    // A document of expressions (`{index: ..., userId: '$userId'}`): each field computed, in order.
    const fields = compileAll(
      keys.map((key) => expr[key]),
      (e) => compile(e, evaluation, bound),
    );
    if (!fields) return byMingo;
    return (doc, scope) => {
      const out: Doc = {};
      keys.forEach((key, i) => {
        out[key] = fields[i]!(doc, scope);
      });
      return out;
    };
  }
  if (keys.length !== 1) return byMingo;
  const op = keys[0]!;
  if (op === '$let') return letExpression(expr[op], evaluation, bound) ?? byMingo;
  if (op === '$map') return mapExpression(expr[op], evaluation, bound, byMingo) ?? byMingo;
  const operator = OPERATORS[op];
  if (!operator) return byMingo;
  // The rare path re-evaluates the whole expression in mingo, so it needs byMingo.
  return operator(expr[op], (e) => compile(e, evaluation, bound), byMingo) ?? byMingo;
}

/** Whether `expr` reads `$$name` for a name in `bound`. */
function mentions(expr: unknown, bound: Set<string>): boolean {
  if (bound.size === 0) return false;
  if (typeof expr === 'string') {
    if (!expr.startsWith('$$')) return false;
    const dot = expr.indexOf('.');
    return bound.has(expr.slice(2, dot === -1 ? undefined : dot));
  }
  if (Array.isArray(expr)) return expr.some((e) => mentions(e, bound));
  return isPlainObject(expr) && Object.values(expr).some((e) => mentions(e, bound));
}

/** `$field.path` from the document; `$$ROOT`/`$$CURRENT` and `$$name` of an enclosing compiled `$let`. */
function fieldPath(expr: string, bound: Set<string>): Compiled | undefined {
  if (!expr.startsWith('$$')) {
    const path = expr.slice(1);
    return path === '' ? undefined : pathReader(path);
  }
  const dot = expr.indexOf('.');
  const name = expr.slice(2, dot === -1 ? undefined : dot);
  const rest = dot === -1 ? '' : expr.slice(dot + 1);
  // Evaluated at the top of a stage, mingo's root and current document are the document itself.
  if (name === 'ROOT' || name === 'CURRENT') {
    if (rest === '') return (doc) => doc;
    return pathReader(rest);
  }
  if (!bound.has(name)) return undefined;
  // As mingo resolves `$$name.path`: the path from an object holding the variables.
  const path = expr.slice(2);
  return (_doc, scope) => resolve({ [name]: scope[name] }, path);
}

function letExpression(arg: unknown, evaluation: Evaluation, bound: Set<string>): Compiled | undefined {
  if (!isPlainObject(arg) || !isPlainObject(arg.vars) || !('in' in arg)) return undefined;
  const vars = arg.vars;
  const names = Object.keys(vars);
  if (names.some((name) => ['ROOT', 'CURRENT', 'REMOVE', 'NOW', 'this'].includes(name))) {
    return undefined;
  }
  const values = names.map((name) => compile(vars[name], evaluation, bound));
  const body = compile(arg.in, evaluation, new Set([...bound, ...names]));
  if (!body || values.some((v) => v === undefined)) return undefined;
  return (doc, scope) => {
    const inner: Doc = { ...scope };
    names.forEach((name, i) => {
      inner[name] = values[i]!(doc, scope);
    });
    return body(doc, inner);
  };
}

/** `$map`: `in` evaluated per element of `input`, the element bound to `as` (default `this`), as mingo does. */
function mapExpression(arg: unknown, evaluation: Evaluation, bound: Set<string>, byMingo: ByMingo) {
  if (!isPlainObject(arg) || !('input' in arg) || !('in' in arg)) return undefined;
  if (!isNil(arg.as) && typeof arg.as !== 'string') return undefined;
  const name = (arg.as as string | undefined) || 'this';
  if (['ROOT', 'CURRENT', 'REMOVE', 'NOW'].includes(name)) return undefined;
  const input = compile(arg.input, evaluation, bound);
  const body = compile(arg.in, evaluation, new Set([...bound, name]));
  if (!input || !body) return undefined;
  return rare(byMingo, (doc, scope) => {
    const list = input(doc, scope);
    if (isNil(list)) return null;
    if (!Array.isArray(list)) return FALLBACK;
    return list.map((item) => body(doc, { ...scope, [name]: item }));
  });
}

type Compile = (expr: unknown) => Compiled | undefined;
type ByMingo = (doc: Doc, scope: Doc) => unknown;
type Operator = (arg: unknown, compile: Compile, byMingo: ByMingo) => Compiled | undefined;

/** Compiled arguments: all of them, or undefined when one cannot be compiled. */
function compileAll(list: unknown[], compile: Compile): Compiled[] | undefined {
  const out = list.map(compile);
  return out.every((c) => c !== undefined) ? (out as Compiled[]) : undefined;
}

/** The compiled arguments of an operator taking exactly `size` of them. */
function args(arg: unknown, size: number, compile: Compile): Compiled[] | undefined {
  return Array.isArray(arg) && arg.length === size ? compileAll(arg, compile) : undefined;
}

/** Returned by a fast path for "ask mingo". */
const FALLBACK = Symbol('fallback');

/** A fast path that hands unusual values to mingo. */
function rare(byMingo: ByMingo, fast: (doc: Doc, scope: Doc) => unknown): Compiled {
  return (doc, scope) => {
    const v = fast(doc, scope);
    return v === FALLBACK ? byMingo(doc, scope) : v;
  };
}

/** A two-operand operator: both operands compiled, their values handed to a fast path that may ask mingo. */
function binary(
  arg: unknown,
  compile: Compile,
  byMingo: ByMingo,
  fast: (x: unknown, y: unknown) => unknown,
): Compiled | undefined {
  const parts = args(arg, 2, compile);
  if (!parts) return undefined;
  const [a, b] = parts as [Compiled, Compiled];
  return rare(byMingo, (doc, scope) => fast(a(doc, scope), b(doc, scope)));
}

/** mingo's `truthy` under its default strict mode: the empty string is true. */
const truthy = (v: unknown) => !!v || v === '';

const OPERATORS: Record<string, Operator> = {
  $literal: (arg) => () => arg,
  $cond(arg, compile) {
    const list = Array.isArray(arg) ? arg : isPlainObject(arg) ? [arg.if, arg.then, arg.else] : undefined;
    const parts = list?.length === 3 ? compileAll(list, compile) : undefined;
    if (!parts) return undefined;
    const [test, then, otherwise] = parts as [Compiled, Compiled, Compiled];
    return (doc, scope) => (truthy(test(doc, scope)) ? then(doc, scope) : otherwise(doc, scope));
  },
  $and(arg, compile) {
    const parts = Array.isArray(arg) ? compileAll(arg, compile) : undefined;
    return parts && ((doc, scope) => parts.every((p) => truthy(p(doc, scope))));
  },
  $or(arg, compile) {
    const parts = Array.isArray(arg) ? compileAll(arg, compile) : undefined;
    return parts && ((doc, scope) => parts.some((p) => truthy(p(doc, scope))));
  },
  $not(arg, compile) {
    const list = Array.isArray(arg) ? arg : [arg];
    const inner = list.length === 1 ? compile(list[0]) : undefined;
    return inner && ((doc, scope) => !inner(doc, scope));
  },
  $ifNull(arg, compile) {
    const parts = Array.isArray(arg) ? compileAll(arg, compile) : undefined;
    return (
      parts &&
      ((doc, scope) => {
        let v: unknown;
        for (const p of parts) {
          v = p(doc, scope);
          if (!isNil(v)) return v;
        }
        return v;
      })
    );
  },
  $eq: (arg, compile, byMingo) => equality(arg, compile, byMingo, false),
  $ne: (arg, compile, byMingo) => equality(arg, compile, byMingo, true),
  $in: (arg, compile, byMingo) =>
    binary(arg, compile, byMingo, (x, values) =>
      Array.isArray(values) ? values.some((v) => isEqual(v, x)) : FALLBACK,
    ),
  $gt: (arg, compile, byMingo) => ordering(arg, compile, byMingo, (c) => c > 0),
  $gte: (arg, compile, byMingo) => ordering(arg, compile, byMingo, (c) => c >= 0),
  $lt: (arg, compile, byMingo) => ordering(arg, compile, byMingo, (c) => c < 0),
  $lte: (arg, compile, byMingo) => ordering(arg, compile, byMingo, (c) => c <= 0),
  $add(arg, compile, byMingo) {
    const parts = Array.isArray(arg) ? compileAll(arg, compile) : undefined;
    if (!parts) return undefined;
    return rare(byMingo, (doc, scope) => {
      let sum = 0;
      let dated = false;
      for (const part of parts) {
        const n = part(doc, scope);
        if (isNil(n)) return null;
        if (typeof n === 'number') sum += n;
        else if (isDate(n) && !dated) {
          dated = true;
          sum += +n;
        } else return FALLBACK;
      }
      return dated ? new Date(sum) : sum;
    });
  },
  $anyElementTrue(arg, compile, byMingo) {
    if (Array.isArray(arg) && arg.length === 0) return () => false;
    if (Array.isArray(arg) && arg.length > 1) return undefined;
    const inner = compile(Array.isArray(arg) ? arg[0] : arg);
    if (!inner) return undefined;
    return rare(byMingo, (doc, scope) => {
      const values = inner(doc, scope);
      return Array.isArray(values) ? values.some(truthy) : FALLBACK;
    });
  },
  $floor: (arg, compile, byMingo) => rounding(arg, compile, byMingo, Math.floor),
  $ceil: (arg, compile, byMingo) => rounding(arg, compile, byMingo, Math.ceil),
  $divide: (arg, compile, byMingo) =>
    binary(arg, compile, byMingo, (x, y) => {
      if (isNil(x) || isNil(y)) return null;
      return isNumber(x) && isNumber(y) && y !== 0 ? x / y : FALLBACK;
    }),
  $subtract: (arg, compile, byMingo) =>
    binary(arg, compile, byMingo, (x, y) => {
      if (isNil(x) || isNil(y)) return null;
      if (isDate(x) && isDate(y)) return +x - +y;
      return typeof x === 'number' && typeof y === 'number' ? x - y : FALLBACK;
    }),
  $arrayElemAt: (arg, compile, byMingo) =>
    binary(arg, compile, byMingo, (list, index) => {
      if (isNil(list) || isNil(index)) return null;
      if (!Array.isArray(list) || !Number.isInteger(index)) return FALLBACK;
      const n = index as number;
      if (n < 0 && Math.abs(n) <= list.length) return list[(n + list.length) % list.length];
      return n >= 0 && n < list.length ? list[n] : undefined;
    }),
};

function equality(arg: unknown, compile: Compile, byMingo: ByMingo, negate: boolean): Compiled | undefined {
  return binary(arg, compile, byMingo, (x, y) => {
    // An array on the left matches by element in mingo.
    if (Array.isArray(x)) return FALLBACK;
    const equal = isEqual(x, y) || (isNil(x) && isNil(y));
    return negate ? !equal : equal;
  });
}

/** mingo's order of two numbers, two strings or two dates (its `simpleCmp`, equal when identical). */
function order(x: unknown, y: unknown): number | undefined {
  if (x === y || Object.is(x, y)) return typeof x === typeof y && (typeof x !== 'object' || isDate(x)) ? 0 : undefined;
  if ((typeof x === 'number' && typeof y === 'number') || (typeof x === 'string' && typeof y === 'string')) {
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (isDate(x) && isDate(y)) return +x < +y ? -1 : +x > +y ? 1 : 0;
  return undefined;
}

/** `$gt` and the like: false across types, computed over numbers, strings or dates; mingo for anything else. */
function ordering(arg: unknown, compile: Compile, byMingo: ByMingo, holds: (c: number) => boolean) {
  return binary(arg, compile, byMingo, (x, y) => {
    // An array on the left compares by element in mingo.
    if (Array.isArray(x)) return FALLBACK;
    // Values of different types never compare true (mingo's expression comparison).
    if (typeOf(x) !== typeOf(y)) return false;
    const c = order(x, y);
    return c === undefined ? FALLBACK : holds(c);
  });
}

function rounding(arg: unknown, compile: Compile, byMingo: ByMingo, round: (n: number) => number) {
  const inner = compile(arg);
  if (!inner) return undefined;
  return rare(byMingo, (doc, scope) => {
    const n = inner(doc, scope);
    if (isNil(n)) return null;
    return typeof n === 'number' ? round(n) : FALLBACK;
  });
}
