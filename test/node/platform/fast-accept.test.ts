import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  acceptOrParse,
  acceptorOf,
  DECLINED,
  fastAcceptor,
  parseFast,
} from '../../../worker/platform/http/fast-accept';
import { agreesWithZod, sampleOf } from '../../support/fast-accept-corpus';

describe('fastAcceptor', () => {
  const schema = z.object({
    id: z.uuid(),
    at: z.iso.datetime({ offset: true }),
    name: z
      .string()
      .max(8)
      .regex(/^[a-z]+$/, 'must be lower case'),
    count: z.number().int().min(0).max(10).optional(),
    ratio: z.number().min(0).max(1).optional(),
    kind: z.enum(['a', 'b']).nullable().optional(),
    flag: z.boolean().optional(),
    nested: z.object({ n: z.number() }).strict().optional(),
    bag: z.record(z.string(), z.unknown()).default({}),
  });
  const valid = { id: crypto.randomUUID(), at: '2026-01-02T03:04:05.678+01:00', name: 'abc' };

  it("answers zod's output for valid input: fields in the schema's order, unknown keys stripped, defaults filled", () => {
    const accept = fastAcceptor(schema)!;
    const input = { extra: 1, name: 'abc', count: 3, kind: null, at: valid.at, id: valid.id, flag: false };
    const out = accept(input);
    expect(out).toStrictEqual(schema.parse(input));
    expect(Object.keys(out as object)).toEqual(Object.keys(schema.parse(input)));
    expect(accept({ ...valid, count: undefined })).toStrictEqual(schema.parse({ ...valid, count: undefined }));
  });

  it('declines whatever zod refuses, so zod answers it with its issues', () => {
    const accept = fastAcceptor(schema)!;
    for (const bad of [
      { ...valid, id: 'nope' },
      { ...valid, at: '2026-02-30T00:00:00Z' },
      { ...valid, name: 'ABC' },
      { ...valid, name: 'abcdefghi' },
      { ...valid, count: 1.5 },
      { ...valid, count: 11 },
      { ...valid, ratio: Number.NaN },
      { ...valid, kind: 'c' },
      { ...valid, flag: 'yes' },
      { ...valid, nested: { n: 1, m: 2 } },
      { ...valid, bag: [] },
      { id: valid.id },
      'text',
      null,
      [],
    ]) {
      expect(schema.safeParse(bad).success).toBe(false);
      expect(accept(bad)).toBe(DECLINED);
      expect(acceptOrParse(schema, accept, bad)).toEqual(schema.safeParse(bad));
    }
  });

  it('builds no acceptor for a construct it does not know, so that schema always goes to zod', () => {
    expect(fastAcceptor(z.string().transform((s) => s.length))).toBeNull();
    expect(fastAcceptor(z.object({ a: z.string().refine((s) => s !== 'x') }))).toBeNull();
    expect(fastAcceptor(z.object({ a: z.string().email() }).strict())).not.toBeNull();
    expect(fastAcceptor(z.object({ a: z.union([z.string(), z.number()]) }))).toBeNull();
    expect(fastAcceptor(z.object({}).catchall(z.string()))).toBeNull();
  });

  it('agrees with zod over a corpus of valid and broken inputs', () => {
    expect(agreesWithZod(schema, sampleOf(schema))).toBeGreaterThan(0);
  });

  it('checks an array element by element within its length bounds', () => {
    const list = z.object({
      items: z
        .array(z.object({ n: z.number() }))
        .min(1)
        .max(3),
    });
    const accept = fastAcceptor(list)!;
    expect(accept).not.toBeNull();
    const input = { items: [{ n: 1, extra: 2 }, { n: 2 }] };
    expect(accept(input)).toStrictEqual(list.parse(input));
    for (const bad of [
      { items: [] },
      { items: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }] },
      { items: [{ n: 'a' }] },
      { items: {} },
    ]) {
      expect(list.safeParse(bad).success).toBe(false);
      expect(accept(bad)).toBe(DECLINED);
    }
    expect(agreesWithZod(list, sampleOf(list))).toBeGreaterThan(0);
  });

  it('parseFast keeps one acceptor per schema and answers safeParse as zod does', () => {
    const body = z.object({ items: z.array(z.record(z.string(), z.unknown())).min(1), note: z.string().optional() });
    expect(acceptorOf(body)).toBe(acceptorOf(body));
    expect(acceptorOf(body)).not.toBeNull();
    for (const input of [{ items: [{ a: 1 }], extra: true }, { items: [] }, { items: [1] }, 'text', null]) {
      expect(parseFast(body, input)).toStrictEqual(body.safeParse(input));
    }
  });

  it('fills the default of an optional around a default, as zod does (a partial of a defaulted field)', () => {
    const partial = z.object({ bag: z.record(z.string(), z.unknown()).default({}), n: z.number() }).partial();
    const accept = fastAcceptor(partial)!;
    for (const input of [{}, { bag: undefined }, { bag: { a: 1 }, n: 2 }]) {
      expect(accept(input)).toStrictEqual(partial.parse(input));
    }
  });

  it("answers a rewritten string (trim, lower case) as zod does, checking the rewrite's output", () => {
    const body = z.object({ text: z.string().trim().min(1).max(5), tag: z.string().toLowerCase().optional() }).strict();
    const accept = fastAcceptor(body)!;
    expect(accept).not.toBeNull();
    for (const input of [{ text: ' hi ' }, { text: 'hello', tag: 'BoWL' }, { text: ' 12345 ' }]) {
      expect(accept(input)).toStrictEqual(body.parse(input));
    }
    // Long before the trim, short after it; blank after it: as zod, the checks read the trimmed text.
    for (const input of [{ text: '   ' }, { text: ' 123456 ' }, { text: 'hi', extra: 1 }]) {
      expect(body.safeParse(input).success).toBe(false);
      expect(accept(input)).toBe(DECLINED);
    }
    expect(agreesWithZod(body, { text: ' hi ' })).toBeGreaterThan(0);
  });

  it('leaves to zod a refinement on a kind whose checks it does not read, and a rewrite of an array', () => {
    const refined = [
      z.enum(['a', 'b']).refine((v) => v === 'a'),
      z
        .string()
        .optional()
        .refine((v) => v !== 'x'),
      z.boolean().refine((v) => v),
      z.record(z.string(), z.number()).refine((r) => Object.keys(r).length < 2),
      z.array(z.string().trim()).overwrite((list) => [...list].sort()),
    ];
    for (const schema of refined) expect(fastAcceptor(schema as z.ZodType)).toBeNull();
    // In an object, the field's refinement makes the whole object zod's.
    expect(fastAcceptor(z.object({ kind: z.enum(['a', 'b']).refine((v) => v === 'a') }))).toBeNull();
  });

  it("accepts only an enum's values, never the names a numeric TypeScript enum maps back", () => {
    enum Level {
      Low = 1,
      High = 2,
    }
    const level = z.enum(Level);
    const accept = fastAcceptor(level)!;
    expect(accept(1)).toBe(1);
    for (const input of ['Low', 'High', 3]) {
      expect(level.safeParse(input).success).toBe(false);
      expect(accept(input)).toBe(DECLINED);
    }
  });

  it('answers a record of any values with the object itself, equal to the copy zod makes', () => {
    const bag = z.record(z.string(), z.unknown());
    const accept = fastAcceptor(bag)!;
    const input = JSON.parse('{"a": 1, "b": {"c": [1, null]}, "d": null}');
    expect(accept(input)).toBe(input);
    expect(accept(input)).toStrictEqual(bag.parse(input));
    for (const bad of [JSON.parse('{"__proto__": {"x": 1}}'), [], 'text', null, new Map()]) {
      expect(accept(bad)).toBe(DECLINED);
    }
  });
});

describe('fastAcceptor never accepts what zod refuses', () => {
  /** The acceptor's answer where it accepts must be zod's; where zod refuses, it must decline (or not exist). */
  const expectAsZod = (schema: z.ZodType, inputs: unknown[]) => {
    const accept = fastAcceptor(schema);
    for (const input of inputs) {
      const parsed = schema.safeParse(input);
      const fast = accept ? accept(input) : DECLINED;
      if (!parsed.success) expect(fast, `zod refuses ${JSON.stringify(input)}`).toBe(DECLINED);
      else if (fast !== DECLINED) {
        expect(fast).toStrictEqual(parsed.data);
        expect(Object.keys(fast as object)).toEqual(Object.keys(parsed.data as object));
      }
    }
  };

  it('declines an object missing a required field of any value, which zod reports at that key', () => {
    for (const field of [z.unknown(), z.any()]) {
      const schema = z.object({ a: field, b: z.number().optional() });
      expect(schema.safeParse({}).success).toBe(false);
      expectAsZod(schema, [{}, { b: 1 }, { a: undefined }, { a: null, b: 1 }, { a: { x: [1] } }]);
      expect(fastAcceptor(schema)!({ a: undefined })).toStrictEqual({ a: undefined });
    }
  });

  it("trusts a string format only where zod's check is its pattern, and checks the rest with zod", () => {
    const refused: [z.ZodType, string][] = [
      [z.base64(), 'a'],
      [z.base64(), 'ab'],
      [z.base64(), 'abc'],
      [z.base64url(), 'a'],
      [z.base64url(), 'abcde'],
      [z.string().check(z.base64()), 'abc'],
      [z.creditCard(), '4111111111111112'],
      [z.iban(), 'DE89370400440532013001'],
      [z.string().includes('x', { position: 2 }), 'xab'],
    ];
    for (const [schema, input] of refused) {
      expect(schema.safeParse(input).success).toBe(false);
      expectAsZod(schema, [input]);
    }
    // The pattern-only formats keep their fast path.
    const uuid = crypto.randomUUID();
    for (const [schema, input] of [
      [z.uuid(), uuid],
      [z.guid(), uuid],
      [z.email(), 'a@b.co'],
      [z.iso.datetime({ offset: true }), '2026-01-02T03:04:05+01:00'],
      [z.iso.date(), '2024-02-29'],
      [z.iso.time(), '03:04:05'],
      [z.iso.duration(), 'P1D'],
      [z.e164(), '+4915112345678'],
      [z.ipv4(), '10.0.0.1'],
      [z.cidrv4(), '10.0.0.0/8'],
      [z.string().regex(/^a/).lowercase().startsWith('ab').endsWith('c').includes('b', { position: 1 }), 'abc'],
      [z.string().uppercase(), 'ABC'],
    ] as [z.ZodType, string][]) {
      expect(fastAcceptor(schema)?.(input)).toBe(schema.parse(input));
    }
  });

  it('checks each key of a record against its key schema', () => {
    const uuid = crypto.randomUUID();
    for (const value of [z.number(), z.unknown()]) {
      for (const key of [z.uuid(), z.string().regex(/^a/), z.string().max(2)]) {
        const schema = z.record(key, value);
        expect(schema.safeParse({ bad: 1 }).success).toBe(false);
        expectAsZod(schema, [{ bad: 1 }, { [uuid]: 1, a: 1 }, { [uuid]: 1 }, { a: 1 }, { ab: 2 }, {}]);
      }
    }
    expect(fastAcceptor(z.record(z.uuid(), z.number()))!({ [uuid]: 1 })).toStrictEqual({ [uuid]: 1 });
  });

  it('keeps an absent key as zod does: a default of undefined holds it, an exact optional omits it', () => {
    const defaulted = z.object({ a: z.unknown().default(undefined), b: z.string().default('b') });
    expectAsZod(defaulted, [{}, { a: undefined }, { a: 'x' }]);
    expect(fastAcceptor(defaulted)!({})).toStrictEqual({ a: undefined, b: 'b' });
    const exact = z.object({ a: z.string().exactOptional(), b: z.string().default('b').exactOptional() });
    expect(exact.safeParse({ a: undefined }).success).toBe(false);
    expectAsZod(exact, [{}, { a: undefined }, { a: 'x' }, { b: undefined }, { b: 'c' }]);
    expect(fastAcceptor(exact)!({ a: 'x' })).toStrictEqual({ a: 'x', b: 'b' });
  });
});
