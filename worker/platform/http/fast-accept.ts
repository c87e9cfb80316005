import type { z } from 'zod';

// zod parses with generic machinery on every call (workerd allows no code generation, so zod runs jitless), which
// costs more than the checks themselves. For hot inputs that are nearly always valid, `fastAcceptor` turns a schema
// into a plain function that checks the same rules and answers zod's output, or DECLINED when it is not sure; the
// caller then parses with zod, which gives the same errors as ever. It only ever accepts what zod accepts.

export const DECLINED: unique symbol = Symbol('declined');
export type Acceptor = (input: unknown) => unknown;

interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  check?: string;
  pattern?: RegExp;
  innerType?: z.ZodType;
  entries?: Record<string, unknown>;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  defaultValue?: unknown;
  element?: z.ZodType;
}
interface CheckDef {
  check: string;
  pattern?: RegExp;
  maximum?: number;
  minimum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const optinOf = (schema: z.ZodType) => (schema as unknown as { _zod: { optin?: string } })._zod.optin;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** A test per check of a string or number schema, or null when one is of a kind this does not know. */
function checksOf(def: Def): ((value: never) => boolean)[] | null {
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  // A string format schema (z.uuid(), z.iso.datetime()) is its own check.
  if (def.check) checks.unshift(def as unknown as CheckDef);
  const tests: ((value: never) => boolean)[] = [];
  for (const check of checks) {
    if (check.check === 'string_format' && check.pattern) {
      const pattern = check.pattern;
      tests.push((value: string) => {
        pattern.lastIndex = 0;
        return pattern.test(value);
      });
    } else if (check.check === 'max_length') tests.push((value: string) => value.length <= check.maximum!);
    else if (check.check === 'min_length') tests.push((value: string) => value.length >= check.minimum!);
    else if (check.check === 'number_format' && check.format === 'safeint') tests.push(Number.isSafeInteger);
    else if (check.check === 'greater_than')
      tests.push((value: number) => (check.inclusive ? value >= check.value! : value > check.value!));
    else if (check.check === 'less_than')
      tests.push((value: number) => (check.inclusive ? value <= check.value! : value < check.value!));
    else return null;
  }
  return tests;
}

const passes = (tests: ((value: never) => boolean)[], value: unknown) => {
  for (const test of tests) if (!test(value as never)) return false;
  return true;
};

/**
 * The schema's fast acceptor, or null when it uses a construct this does not know (the caller then always uses zod).
 * Knows objects (stripping or strict), records of any value, arrays with length bounds, strings and numbers with
 * their common checks, booleans, enums, optional, nullable and default.
 */
export function fastAcceptor(schema: z.ZodType): Acceptor | null {
  const def = defOf(schema);
  switch (def.type) {
    case 'unknown':
    case 'any':
      return (input) => input;
    case 'boolean':
      return (input) => (typeof input === 'boolean' ? input : DECLINED);
    case 'string': {
      const tests = checksOf(def);
      if (!tests) return null;
      return (input) => (typeof input === 'string' && passes(tests, input) ? input : DECLINED);
    }
    case 'number': {
      const tests = checksOf(def);
      if (!tests) return null;
      return (input) =>
        typeof input === 'number' && Number.isFinite(input) && passes(tests, input) ? input : DECLINED;
    }
    case 'enum': {
      // zod's own set: a TypeScript numeric enum's entries also hold its reverse mappings (names), which zod refuses.
      const values = (schema as unknown as { _zod: { values?: Set<unknown> } })._zod.values;
      if (!values) return null;
      return (input) => (values.has(input) ? input : DECLINED);
    }
    case 'optional':
    case 'nullable': {
      const inner = fastAcceptor(def.innerType!);
      if (!inner) return null;
      const empty = def.type === 'optional' ? undefined : null;
      // As zod: an optional around a default (`.partial()` of a defaulted field) still fills in the default.
      if (def.type === 'optional' && optinOf(def.innerType!) === 'defaulted') return inner;
      return (input) => (input === empty ? input : inner(input));
    }
    case 'default': {
      const inner = fastAcceptor(def.innerType!);
      if (!inner) return null;
      // zod's defaultValue hands out a fresh copy each time it is read.
      return (input) => (input === undefined ? def.defaultValue : inner(input));
    }
    case 'record': {
      if (defOf(def.keyType!).type !== 'string' || defOf(def.keyType!).checks?.length) return null;
      const value = fastAcceptor(def.valueType!);
      if (!value) return null;
      // Values of any kind: zod's copy would hold the same keys and values, so the object itself is the answer.
      if (['unknown', 'any'].includes(defOf(def.valueType!).type)) {
        return (input) => (isPlainObject(input) && !Object.hasOwn(input, '__proto__') ? input : DECLINED);
      }
      return (input) => {
        if (!isPlainObject(input)) return DECLINED;
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(input)) {
          const item = key === '__proto__' ? DECLINED : value(input[key]);
          if (item === DECLINED) return DECLINED;
          out[key] = item;
        }
        return out;
      };
    }
    case 'array': {
      const element = fastAcceptor(def.element!);
      const tests = element && checksOf(def);
      if (!element || !tests) return null;
      return (input) => {
        if (!Array.isArray(input) || !passes(tests, input)) return DECLINED;
        const out = new Array(input.length);
        for (let i = 0; i < input.length; i += 1) {
          const item = element(input[i]);
          if (item === DECLINED) return DECLINED;
          out[i] = item;
        }
        return out;
      };
    }
    case 'object':
      return objectAcceptor(def);
    default:
      return null;
  }
}

function objectAcceptor(def: Def): Acceptor | null {
  if (def.checks?.length) return null;
  const strict = def.catchall !== undefined;
  if (strict && defOf(def.catchall!).type !== 'never') return null;
  const keys = Object.keys(def.shape ?? {});
  const fields: Acceptor[] = [];
  for (const key of keys) {
    const field = fastAcceptor(def.shape![key]!);
    if (!field) return null;
    fields.push(field);
  }
  const known = new Set(keys);
  return (input) => {
    if (!isPlainObject(input)) return DECLINED;
    if (strict) for (const key in input) if (!known.has(key)) return DECLINED;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i]!;
      const value = fields[i]!(input[key]);
      if (value === DECLINED) return DECLINED;
      // As zod: an absent optional key stays absent, one present as undefined stays present.
      if (value !== undefined || key in input) out[key] = value;
    }
    return out;
  };
}

/** Parses as `schema.safeParse` does, through the fast acceptor when it accepts. */
export function acceptOrParse<T extends z.ZodType>(
  schema: T,
  acceptor: Acceptor | null,
  input: unknown,
): z.ZodSafeParseResult<z.output<T>> {
  if (acceptor) {
    const value = acceptor(input);
    if (value !== DECLINED) return { success: true, data: value as z.output<T> };
  }
  return schema.safeParse(input);
}

/**
 * The schema, its `safeParseAsync` (what the routes' validators call) taking the fast acceptor first; the same
 * schema object, so its OpenAPI description is unchanged. Any input the acceptor declines is parsed by zod as ever.
 */
export function acceptingFast<T extends z.ZodType>(schema: T): T {
  const acceptor = fastAcceptor(schema);
  if (!acceptor) return schema;
  const parse = schema.safeParseAsync.bind(schema);
  Object.defineProperty(schema, 'safeParseAsync', {
    value: async (input: unknown) => {
      const value = acceptor(input);
      return value === DECLINED ? parse(input) : { success: true, data: value };
    },
    configurable: true,
  });
  return schema;
}
