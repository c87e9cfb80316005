import { Context } from 'mingo';
import { $devdbCompiled, COMPILED_OPERATOR, compiledForStage } from './expressions.js';
import { nestedWriteStage, withNestedLookups } from './lookup-stage.js';
import { $devdbStage, OWN_STAGE_OPERATOR } from './own-stage-operator.js';
import { ownStage, projectsExpression } from './own-stages.js';
import { type Doc, isPlainObject } from './values.js';

/**
 * devdb's additions to the context a pipeline runs with: the operators standing for compiled expressions and for
 * the stages devdb runs itself.
 */
export const DEVDB_STAGES = Context.init({
  expression: { [COMPILED_OPERATOR]: $devdbCompiled },
  pipeline: { [OWN_STAGE_OPERATOR]: $devdbStage },
} as unknown as Parameters<typeof Context.init>[0]);

/**
 * `stage` as devdb runs it: its own version of the stage (devdb/src/own-stages.ts), or mingo's stage with the
 * expressions it evaluates per document compiled (devdb/src/expressions.ts): every value of `$addFields`/`$set`,
 * and the computed fields of `$project`; a `$lookup` by `localField`/`foreignField` in a sub-pipeline is devdb's too.
 */
export function withCompiledExpressions(stage: Doc): Doc {
  const own = ownStage(stage);
  if (own) return own;
  const keys = Object.keys(stage);
  if (keys.length !== 1) return stage;
  const name = keys[0]!;
  const spec = stage[name];
  if (!isPlainObject(spec)) return stage;
  if (name === '$addFields' || name === '$set') {
    const compiled = {
      [name]: Object.fromEntries(Object.entries(spec).map(([field, v]) => [field, compiledForStage(v)])),
    };
    return nestedWriteStage(compiled) ?? compiled;
  }
  if (name === '$project') {
    const fields = Object.entries(spec).map(([field, v]) => [field, projectsExpression(v) ? compiledForStage(v) : v]);
    return { [name]: Object.fromEntries(fields) };
  }
  return withNestedLookups(stage);
}
