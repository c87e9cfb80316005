import type { z } from 'zod';
import { type Check, checked, checksOf, DECLINED } from './fast-accept-checks';

// zod parses with generic machinery on every call (workerd allows no code generation, so zod runs jitless), which
// costs more than the checks themselves. For hot inputs that are nearly always valid, `fastAcceptor` turns a schema
// into a plain function that checks the same rules and answers zod's output, or DECLINED when it is not sure; the
// caller then parses with zod, which gives the same errors as ever. It only ever accepts what zod accepts.

export { DECLINED };
export type Acceptor = (input: unknown) => unknown;

interface Def {
  type: string;
  checks?: Check[];
  check?: string;
  innerType?: z.ZodType;
  entries?: Record<string, unknown>;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  defaultValue?: unknown;
  element?: z.ZodType;
}
interface Internals {
  _zod: { def: Def; traits: Set<string>; optin?: string; optout?: string };
}

const internalsOf = (schema: z.ZodType) => schema as unknown as Internals;
const defOf = (schema: z.ZodType) => internalsOf(schema)._zod.def;
const isA = (schema: z.ZodType, trait: string) => internalsOf(schema)._zod.traits.has(trait);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** The kinds whose checks the acceptor reads (checksOf), or declines itself on (an object with any). */
const CHECKED_KINDS = new Set(['string', 'number', 'array', 'object']);

/**
 * The schema's fast acceptor, or null when it uses a construct this does not know (the caller then always uses zod).
 * Knows objects (stripping or strict), records with string keys, arrays with length bounds, strings and numbers with
 * their common checks, booleans, enums, optional, exact optional, nullable and default.
 */
export function fastAcceptor(schema: z.ZodType): Acceptor | null {
  const def = defOf(schema);
  // A check (a refinement) on a kind whose checks this does not read: zod's alone to run.
  if (def.checks?.length && !CHECKED_KINDS.has(def.type)) return null;
  switch (def.type) {
    case 'unknown':
    case 'any':
      return (input) => input;
    case 'boolean':
      return (input) => (typeof input === 'boolean' ? input : DECLINED);
    case 'string': {
      const steps = checksOf(schema);
      if (!steps) return null;
      return (input) => (typeof input === 'string' ? checked(steps, input) : DECLINED);
    }
    case 'number': {
      const steps = checksOf(schema);
      if (!steps) return null;
      return (input) => (typeof input === 'number' && Number.isFinite(input) ? checked(steps, input) : DECLINED);
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
      // As zod: an exact optional admits absence only as an object's key, which the object decides; its value is the inner's.
      if (isA(schema, '$ZodExactOptional')) return inner;
      const empty = def.type === 'optional' ? undefined : null;
      // As zod: an optional around a default (`.partial()` of a defaulted field) still fills in the default.
      if (def.type === 'optional' && internalsOf(def.innerType!)._zod.optin === 'defaulted') return inner;
      return (input) => (input === empty ? input : inner(input));
    }
    case 'default': {
      const inner = fastAcceptor(def.innerType!);
      if (!inner) return null;
      // zod's defaultValue hands out a fresh copy each time it is read.
      return (input) => (input === undefined ? def.defaultValue : inner(input));
    }
    case 'record':
      return recordAcceptor(def);
    case 'array': {
      const element = fastAcceptor(def.element!);
      // zod runs an array's checks on its parsed elements; a rewrite of the array would see other values here.
      const steps = element && checksOf(schema, false);
      if (!element || !steps) return null;
      return (input) => {
        if (!Array.isArray(input) || checked(steps, input) !== input) return DECLINED;
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

function recordAcceptor(def: Def): Acceptor | null {
  // A key set (enum, literal) makes zod require every key; only a string key schema is a rule each key must pass.
  if (defOf(def.keyType!).type !== 'string') return null;
  const keyAcceptor = fastAcceptor(def.keyType!);
  const value = fastAcceptor(def.valueType!);
  if (!keyAcceptor || !value) return null;
  const keysFree = !defOf(def.keyType!).check && !defOf(def.keyType!).checks?.length;
  // zod runs the key schema on symbol keys too and refuses them; JSON never has any, so decline rather than check.
  const isRecordObject = (input: unknown): input is Record<string, unknown> =>
    isPlainObject(input) && !Object.hasOwn(input, '__proto__') && Object.getOwnPropertySymbols(input).length === 0;
  // Values of any kind: zod's copy would hold the same keys and values, so the object itself is the answer.
  if (['unknown', 'any'].includes(defOf(def.valueType!).type)) {
    if (keysFree) return (input) => (isRecordObject(input) ? input : DECLINED);
    return (input) => {
      if (!isRecordObject(input)) return DECLINED;
      for (const key of Object.keys(input)) if (keyAcceptor(key) === DECLINED) return DECLINED;
      return input;
    };
  }
  return (input) => {
    if (!isRecordObject(input)) return DECLINED;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      const item = keysFree || keyAcceptor(key) !== DECLINED ? value(input[key]) : DECLINED;
      if (item === DECLINED) return DECLINED;
      out[key] = item;
    }
    return out;
  };
}

/** How zod's object treats one field's key (its `handlePropertyResult`), from the field's optin and optout. */
interface FieldRule {
  key: string;
  accept: Acceptor;
  /** Absent is fine and leaves the key absent, whatever the field would make of undefined. */
  absentOmitted: boolean;
  /** Absent is refused: the field neither is optional nor has a default. */
  absentRefused: boolean;
  /** An absent key whose value comes out undefined is still written (a default of undefined). */
  absentKeepsUndefined: boolean;
}

function objectAcceptor(def: Def): Acceptor | null {
  if (def.checks?.length) return null;
  const strict = def.catchall !== undefined;
  if (strict && defOf(def.catchall!).type !== 'never') return null;
  const shape = def.shape ?? {};
  // zod skips a declared __proto__ and reads symbol keys, neither of which this follows.
  if (Object.hasOwn(shape, '__proto__') || Object.getOwnPropertySymbols(shape).length) return null;
  const fields: FieldRule[] = [];
  for (const key of Object.keys(shape)) {
    const accept = fastAcceptor(shape[key]!);
    if (!accept) return null;
    const { optin, optout } = internalsOf(shape[key]!)._zod;
    fields.push({
      key,
      accept,
      absentOmitted: optin === 'optional' && optout === 'optional',
      absentRefused: optin === undefined,
      absentKeepsUndefined: optin === 'defaulted' && optout !== 'optional',
    });
  }
  const known = new Set(Object.keys(shape));
  return (input) => {
    if (!isPlainObject(input)) return DECLINED;
    if (strict) for (const key in input) if (!known.has(key)) return DECLINED;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i += 1) {
      const field = fields[i]!;
      // `in`, as zod: a key the prototype holds (constructor) counts as present.
      const present = field.key in input;
      if (!present && field.absentOmitted) continue;
      if (!present && field.absentRefused) return DECLINED;
      const value = field.accept(input[field.key]);
      if (value === DECLINED) return DECLINED;
      if (value !== undefined || present || field.absentKeepsUndefined) out[field.key] = value;
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

const acceptors = new WeakMap<z.ZodType, Acceptor | null>();

/** The schema's fast acceptor (or null), made on first use and kept with the schema. */
export function acceptorOf(schema: z.ZodType): Acceptor | null {
  let acceptor = acceptors.get(schema);
  if (acceptor === undefined) {
    acceptor = fastAcceptor(schema);
    acceptors.set(schema, acceptor);
  }
  return acceptor;
}

/** Parses as `schema.safeParse` does, through the schema's kept fast acceptor. */
export function parseFast<T extends z.ZodType>(schema: T, input: unknown): z.ZodSafeParseResult<z.output<T>> {
  return acceptOrParse(schema, acceptorOf(schema), input);
}
