import type { Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { MingoError } from 'mingo/util';
import { isPlainObject } from './values.js';

/** A stage devdb runs itself, inside a mingo pipeline: `{$devdbStage: {run}}`. */
export const OWN_STAGE_OPERATOR = '$devdbStage';

export type Run = (docs: Iterator, options: Options) => Iterator;

/** The pipeline operator behind `{$devdbStage: {run}}`; a client's pipeline naming it gets mingo's answer. */
export function $devdbStage(docs: Iterator, spec: unknown, options: Options): Iterator {
  const run = isPlainObject(spec) ? spec.run : undefined;
  if (typeof run !== 'function') throw new MingoError(`unregistered pipeline operator ${OWN_STAGE_OPERATOR}.`);
  return (run as Run)(docs, options);
}
