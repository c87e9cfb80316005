import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { isDate, isEqual, isNil, isNumber, isObject, resolve } from 'mingo/util';
import { type Doc, isPlainObject } from './values.js';

/**
 * An aggregation expression compiled once per stage, for the operators the dashboards and experiment results
 * evaluate per document. Each compiled operator computes mingo's result for the common argument types and hands
 * the whole expression back to mingo for anything else (a missing value where mingo reports an error, an array
 * where mingo flattens...), so results and errors stay mingo's. Unknown operators and variables go to mingo too.
 * `scope` holds the variables of enclosing compiled `$let`s.
 */
export type Compiled = (doc: Doc, scope: Doc) => unknown;

export function compileExpression(expr: unknown, options: Options): (doc: Doc) => unknown {
  const run = compile(expr, options, new Set())!;
  const empty: Doc = {};
  return (doc) => run(doc, empty);
}

/**
 * undefined when only mingo can evaluate `expr` and it names a variable of an enclosing compiled `$let` (which
 * mingo would not see): that `$let` then goes to mingo whole.
 */
function compile(expr: unknown, options: Options, bound: Set<string>): Compiled | undefined {
  const byMingo = mentions(expr, bound) ? undefined : (doc: Doc) => evalExpr(doc, expr, options);
  if (typeof expr === 'string') return expr.startsWith('$') ? (fieldPath(expr, bound) ?? byMingo) : () => expr;
  // mingo returns what is neither a string, an array nor an object as it is (numbers, dates, ObjectIds...).
  if (!Array.isArray(expr) && !isObject(expr)) return () => expr;
  if (!isPlainObject(expr)) return byMingo;
  const keys = Object.keys(expr);
  if (keys.length !== 1 || !keys[0]!.startsWith('$')) return byMingo;
  const op = keys[0]!;
  if (op === '$let') return letExpression(expr[op], options, bound) ?? byMingo;
  const operator = OPERATORS[op];
  if (!operator) return byMingo;
  // The rare path re-evaluates the whole expression in mingo, so it needs byMingo.
  return operator(expr[op], (e) => compile(e, options, bound), byMingo) ?? byMingo;
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
    return path === '' ? undefined : (doc) => resolve(doc, path);
  }
  const dot = expr.indexOf('.');
  const name = expr.slice(2, dot === -1 ? undefined : dot);
  const rest = dot === -1 ? '' : expr.slice(dot + 1);
  // Evaluated at the top of a stage, mingo's root and current document are the document itself.
  if (name === 'ROOT' || name === 'CURRENT') return (doc) => (rest === '' ? doc : resolve(doc, rest));
  if (!bound.has(name)) return undefined;
  // As mingo resolves `$$name.path`: the path from an object holding the variables.
  const path = expr.slice(2);
  return (_doc, scope) => resolve({ [name]: scope[name] }, path);
}

function letExpression(arg: unknown, options: Options, bound: Set<string>): Compiled | undefined {
  if (!isPlainObject(arg) || !isPlainObject(arg.vars) || !('in' in arg)) return undefined;
  const vars = arg.vars;
  const names = Object.keys(vars);
  if (names.some((name) => name === 'ROOT' || name === 'CURRENT' || name === 'this' || name === 'NOW')) {
    return undefined;
  }
  const values = names.map((name) => compile(vars[name], options, bound));
  const body = compile(arg.in, options, new Set([...bound, ...names]));
  if (!body || values.some((v) => v === undefined)) return undefined;
  return (doc, scope) => {
    const inner: Doc = { ...scope };
    names.forEach((name, i) => {
      inner[name] = values[i]!(doc, scope);
    });
    return body(doc, inner);
  };
}

type Compile = (expr: unknown) => Compiled | undefined;
type ByMingo = ((doc: Doc) => unknown) | undefined;
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

/** A fast path that hands unusual values to mingo; impossible where mingo would miss a `$let` variable. */
function rare(byMingo: ByMingo, fast: (doc: Doc, scope: Doc) => unknown): Compiled | undefined {
  if (!byMingo) return undefined;
  return (doc, scope) => {
    const v = fast(doc, scope);
    return v === FALLBACK ? byMingo(doc) : v;
  };
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
  $in(arg, compile, byMingo) {
    const parts = args(arg, 2, compile);
    if (!parts) return undefined;
    const [item, list] = parts as [Compiled, Compiled];
    return rare(byMingo, (doc, scope) => {
      const x = item(doc, scope);
      const values = list(doc, scope);
      if (!Array.isArray(values)) return FALLBACK;
      for (const v of values) if (isEqual(v, x)) return true;
      return false;
    });
  },
  $floor: (arg, compile, byMingo) => rounding(arg, compile, byMingo, Math.floor),
  $ceil: (arg, compile, byMingo) => rounding(arg, compile, byMingo, Math.ceil),
  $divide(arg, compile, byMingo) {
    const parts = args(arg, 2, compile);
    if (!parts) return undefined;
    const [a, b] = parts as [Compiled, Compiled];
    return rare(byMingo, (doc, scope) => {
      const x = a(doc, scope);
      const y = b(doc, scope);
      if (isNil(x) || isNil(y)) return null;
      return isNumber(x) && isNumber(y) && y !== 0 ? x / y : FALLBACK;
    });
  },
  $subtract(arg, compile, byMingo) {
    const parts = args(arg, 2, compile);
    if (!parts) return undefined;
    const [a, b] = parts as [Compiled, Compiled];
    return rare(byMingo, (doc, scope) => {
      const x = a(doc, scope);
      const y = b(doc, scope);
      if (isNil(x) || isNil(y)) return null;
      if (isDate(x) && isDate(y)) return +x - +y;
      return typeof x === 'number' && typeof y === 'number' ? x - y : FALLBACK;
    });
  },
  $arrayElemAt(arg, compile, byMingo) {
    const parts = args(arg, 2, compile);
    if (!parts) return undefined;
    const [a, i] = parts as [Compiled, Compiled];
    return rare(byMingo, (doc, scope) => {
      const list = a(doc, scope);
      const index = i(doc, scope);
      if (isNil(list) || isNil(index)) return null;
      if (!Array.isArray(list) || !Number.isInteger(index)) return FALLBACK;
      const n = index as number;
      if (n < 0 && Math.abs(n) <= list.length) return list[(n + list.length) % list.length];
      return n >= 0 && n < list.length ? list[n] : undefined;
    });
  },
};

function equality(arg: unknown, compile: Compile, byMingo: ByMingo, negate: boolean): Compiled | undefined {
  const parts = args(arg, 2, compile);
  if (!parts) return undefined;
  const [a, b] = parts as [Compiled, Compiled];
  return rare(byMingo, (doc, scope) => {
    const x = a(doc, scope);
    // An array on the left matches by element in mingo.
    if (Array.isArray(x)) return FALLBACK;
    const y = b(doc, scope);
    const equal = isEqual(x, y) || (isNil(x) && isNil(y));
    return negate ? !equal : equal;
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
