import type { z } from 'zod';

// The checks of a string, number or array schema as zod runs them, for the fast acceptors (./fast-accept.ts): each
// check a step, in zod's order, or no steps at all when one is of a kind not known to be exactly what zod does.

/** What an acceptor answers for an input it is not sure zod accepts: the caller then parses with zod. */
export const DECLINED: unique symbol = Symbol('declined');

interface CheckDef {
  check: string;
  /** An overwrite check's rewrite. */
  tx?: (value: never) => unknown;
  pattern?: RegExp;
  maximum?: number;
  minimum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  prefix?: string;
  suffix?: string;
  includes?: string;
  position?: number;
}
/** A check, or a string format schema (z.uuid()), which is a check itself; `traits` names the zod classes it is. */
export interface Check {
  _zod: { def: CheckDef; traits: Set<string> };
}
const defOf = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { def: { checks?: Check[]; check?: string } } })._zod.def;

// zod's string formats whose whole check is `pattern.test` (node_modules/zod/v4/core/schemas.js and checks.js), by the
// zod class that makes them: matching the class, not the format's name, keeps out z.stringFormat('uuid', ...) and
// every format whose check does more than its pattern (base64, base64url, ipv6, cidrv6, credit card, IBAN, JWT, URL).
const PATTERN_ONLY = [
  '$ZodUUID',
  '$ZodGUID',
  '$ZodEmail',
  '$ZodISODateTime',
  '$ZodISODate',
  '$ZodISOTime',
  '$ZodISODuration',
  '$ZodE164',
  '$ZodIPv4',
  '$ZodCIDRv4',
  '$ZodCheckRegex',
  '$ZodCheckLowerCase',
  '$ZodCheckUpperCase',
];

/** The test of one string format check exactly as zod runs it, or null when zod's check is not known to be that. */
function formatTest(check: Check): ((value: string) => boolean) | null {
  const { def, traits } = check._zod;
  if (traits.has('$ZodCheckStartsWith')) return (value) => value.startsWith(def.prefix!);
  if (traits.has('$ZodCheckEndsWith')) return (value) => value.endsWith(def.suffix!);
  if (traits.has('$ZodCheckIncludes')) return (value) => value.includes(def.includes!, def.position);
  const pattern = def.pattern;
  if (!pattern || !PATTERN_ONLY.some((trait) => traits.has(trait))) return null;
  return (value) => {
    pattern.lastIndex = 0;
    return pattern.test(value);
  };
}

/** One check: the value to go on with (a rewrite's output, else the value itself), or DECLINED when it fails. */
type Step = (value: never) => unknown;

const testing =
  (test: (value: never) => boolean): Step =>
  (value) =>
    test(value) ? value : DECLINED;

/**
 * A step per check of a string, number or array schema, in zod's order, or null when one is of a kind this does not
 * know. A rewrite (`.trim()`, `.toLowerCase()`: zod's overwrite check) hands the checks after it its output, as zod does.
 */
export function checksOf(schema: z.ZodType, rewrites = true): Step[] | null {
  const def = defOf(schema);
  const checks = [...(def.checks ?? [])];
  // A string format schema (z.uuid(), z.iso.datetime()) is its own check.
  if (def.check) checks.unshift(schema as unknown as Check);
  const steps: Step[] = [];
  for (const item of checks) {
    const check = item._zod.def;
    if (check.check === 'string_format') {
      const test = formatTest(item);
      if (!test) return null;
      steps.push(testing(test));
    } else if (rewrites && check.check === 'overwrite' && item._zod.traits.has('$ZodCheckOverwrite'))
      steps.push(check.tx!);
    else if (check.check === 'max_length') steps.push(testing((value: string) => value.length <= check.maximum!));
    else if (check.check === 'min_length') steps.push(testing((value: string) => value.length >= check.minimum!));
    else if (check.check === 'number_format' && check.format === 'safeint') steps.push(testing(Number.isSafeInteger));
    else if (check.check === 'greater_than')
      steps.push(testing((value: number) => (check.inclusive ? value >= check.value! : value > check.value!)));
    else if (check.check === 'less_than')
      steps.push(testing((value: number) => (check.inclusive ? value <= check.value! : value < check.value!)));
    else return null;
  }
  return steps;
}

/** The value after every step, or DECLINED at the first that fails. */
export const checked = (steps: Step[], value: unknown): unknown => {
  let current = value;
  for (const step of steps) {
    current = step(current as never);
    if (current === DECLINED) return DECLINED;
  }
  return current;
};
