import { expect } from 'vitest';
import type { z } from 'zod';
import { DECLINED, fastAcceptor } from '../../worker/platform/http/fast-accept';

// Checks a fast acceptor (worker/platform/http/fast-accept.ts) against zod itself: a valid sample of the schema, then
// the sample with each field replaced by each value of a pool of likely and unlikely values, removed, or joined by
// an unknown key. Wherever the acceptor accepts, zod must accept with the very same output.

type Def = {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, unknown>;
  element?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const POOL: unknown[] = [
  '',
  'x',
  'Some words',
  'spot_viewed',
  'install-1',
  '2.3.1',
  '1.0.0-beta.1',
  'gpt-4o-mini',
  '/spots/x',
  '/spots?q=1',
  '0123456789abcdef01234567',
  '0123456789ABCDEF01234567',
  crypto.randomUUID(),
  crypto.randomUUID().toUpperCase(),
  'not-a-uuid',
  '2026-01-02T03:04:05.678Z',
  '2026-01-02T03:04:05+02:00',
  '2026-01-02T03:04Z',
  '2026-02-30T00:00:00Z',
  '2026-01-02',
  'a'.repeat(300),
  0,
  -0,
  -1,
  1,
  1.5,
  231,
  86_400_000,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  null,
  undefined,
  {},
  [],
  { a: 1 },
];

/** Every enum value the schema names anywhere, so mutations reach valid enum members too. */
function enumValues(schema: z.ZodType, into: unknown[] = []): unknown[] {
  const def = defOf(schema);
  if (def.type === 'enum') into.push(...Object.values(def.entries ?? {}));
  if (def.innerType) enumValues(def.innerType, into);
  for (const field of Object.values(def.shape ?? {})) enumValues(field, into);
  return into;
}

/** A valid value of the schema: objects field by field, others the first pool value zod accepts. */
export function sampleOf(schema: z.ZodType): unknown {
  const def = defOf(schema);
  if (def.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(def.shape ?? {})) {
      const value = sampleOf(field);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') {
    const inner = sampleOf(def.innerType!);
    return inner === undefined ? undefined : inner;
  }
  if (def.type === 'record') return { key: 'value' };
  if (def.type === 'array') return [sampleOf(def.element!), sampleOf(def.element!)];
  return [...enumValues(schema), ...POOL].find((value) => value !== undefined && schema.safeParse(value).success);
}

/** Checks the acceptor against zod over the corpus built from `base`; answers how many inputs it accepted. */
export function agreesWithZod(schema: z.ZodType, base: unknown): number {
  const accept = fastAcceptor(schema);
  expect(accept, 'the schema has a fast acceptor').not.toBeNull();
  expect(accept!(base), 'the valid sample is accepted fast').not.toBe(DECLINED);
  const pool = [...enumValues(schema), ...POOL];
  const inputs: unknown[] = [base, ...POOL];
  if (base && typeof base === 'object') {
    const record = base as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(record), ...Object.keys(defOf(schema).shape ?? {})])];
    inputs.push({ ...record, unknownKey: 1 });
    for (const key of keys) {
      const { [key]: _, ...without } = record;
      inputs.push(without, { ...record, [key]: undefined });
      for (const value of pool) inputs.push({ ...record, [key]: value });
      const nested = defOf(schema).shape?.[key];
      if (nested && record[key] && typeof record[key] === 'object') {
        for (const value of pool) inputs.push({ ...record, [key]: { ...(record[key] as object), extra: value } });
      }
    }
  }
  let accepted = 0;
  for (const input of inputs) {
    const fast = accept!(input);
    if (fast === DECLINED) continue;
    accepted += 1;
    const parsed = schema.safeParse(input);
    expect(parsed.success, `zod accepts ${JSON.stringify(input)}`).toBe(true);
    expect(fast).toStrictEqual(parsed.data);
    expect(Object.keys(fast as object)).toEqual(Object.keys(parsed.data as object));
  }
  return accepted;
}
