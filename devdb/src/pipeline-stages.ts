import { Context } from 'mingo';
import { isOperator } from 'mingo/util';
import { $devdbCompiled, COMPILED_OPERATOR, compiledForStage } from './expressions.js';
import { type Doc, isPlainObject } from './values.js';

/** devdb's additions to the context a pipeline runs with: the operator standing for compiled expressions. */
export const DEVDB_STAGES = Context.init({
  expression: { [COMPILED_OPERATOR]: $devdbCompiled },
} as unknown as Parameters<typeof Context.init>[0]);

/** mingo's projection operators: in `$project` they are not expressions. */
const PROJECTION_OPERATORS = new Set(['$slice', '$elemMatch']);

/** A `$project` value that mingo evaluates as an expression: a field path or an expression operator. */
function projectsExpression(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('$');
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && isOperator(keys[0]!) && !PROJECTION_OPERATORS.has(keys[0]!);
}

/**
 * `stage` with the expressions mingo evaluates per document compiled (devdb/src/expressions.ts): every value of
 * `$addFields`/`$set`, and the computed fields of `$project`. The stage itself stays mingo's.
 */
export function withCompiledExpressions(stage: Doc): Doc {
  const keys = Object.keys(stage);
  if (keys.length !== 1) return stage;
  const name = keys[0]!;
  const spec = stage[name];
  if (!isPlainObject(spec)) return stage;
  if (name === '$addFields' || name === '$set') {
    return { [name]: Object.fromEntries(Object.entries(spec).map(([field, v]) => [field, compiledForStage(v)])) };
  }
  if (name === '$project') {
    const fields = Object.entries(spec).map(([field, v]) => [field, projectsExpression(v) ? compiledForStage(v) : v]);
    return { [name]: Object.fromEntries(fields) };
  }
  return stage;
}
