import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptingFast, acceptOrParse, DECLINED, fastAcceptor } from '../../../worker/platform/http/fast-accept';
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

  it('acceptingFast keeps the schema object and answers safeParseAsync as zod does', async () => {
    const body = z.object({ items: z.array(z.record(z.string(), z.unknown())).min(1), note: z.string().optional() });
    const zodOnly = body.clone();
    expect(acceptingFast(body)).toBe(body);
    for (const input of [{ items: [{ a: 1 }], extra: true }, { items: [] }, { items: [1] }, 'text', null]) {
      expect(await body.safeParseAsync(input)).toStrictEqual(await zodOnly.safeParseAsync(input));
    }
  });

  it('fills the default of an optional around a default, as zod does (a partial of a defaulted field)', () => {
    const partial = z.object({ bag: z.record(z.string(), z.unknown()).default({}), n: z.number() }).partial();
    const accept = fastAcceptor(partial)!;
    for (const input of [{}, { bag: undefined }, { bag: { a: 1 }, n: 2 }]) {
      expect(accept(input)).toStrictEqual(partial.parse(input));
    }
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
