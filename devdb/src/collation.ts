import type { CollationSpec } from 'mingo/types';
import { fail } from './errors.js';
import { type Doc, isPlainObject } from './values.js';

/**
 * A collation as devdb applies it. Strength 1 (base letters) and 2 (plus
 * accents) compare strings case-insensitively: devdb "folds" strings into a
 * comparison key, so equality, `$in`, ranges, distinct and unique indexes all
 * agree with mongod. Strength 3+ only affects sort order (through mingo).
 */
export interface Collation {
  spec: Doc;
  /** The mingo sort collation (ICU locale ids use `_`, Intl wants `-`). */
  sort: CollationSpec;
  /** 1 or 2 when matching folds case, else undefined. */
  foldStrength?: 1 | 2;
}

/** Undefined for no collation or `{locale: 'simple'}`; throws mongod's errors for malformed specs. */
export function parseCollation(raw: unknown): Collation | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isPlainObject(raw)) fail('TypeMismatch', "BSON field 'collation' is the wrong type, expected type 'object'");
  const locale = raw.locale;
  if (typeof locale !== 'string') fail('FailedToParse', "Required field 'locale' is missing from collation");
  if (locale === 'simple') return undefined;
  const strength = raw.strength ?? 3;
  if (typeof strength !== 'number' || !Number.isInteger(strength) || strength < 1 || strength > 5) {
    fail('FailedToParse', `Field 'strength' must be an integer 1 through 5. Got: ${String(strength)}`);
  }
  const sort = { ...raw, locale: locale.replace(/_/g, '-') } as unknown as CollationSpec;
  const caseLevel = raw.caseLevel === true;
  const foldStrength = !caseLevel && (strength === 1 || strength === 2) ? strength : undefined;
  return { spec: raw, sort, ...(foldStrength ? { foldStrength } : {}) };
}

/** The comparison key of a string under a folding collation. */
export function foldString(s: string, strength: 1 | 2): string {
  const lower = s.toLowerCase();
  return strength === 1 ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower.normalize('NFC');
}

/** Folds every string inside a document value (keys stay as they are). */
export function foldValue(v: unknown, strength: 1 | 2): unknown {
  if (typeof v === 'string') return foldString(v, strength);
  if (Array.isArray(v)) return v.map((x) => foldValue(x, strength));
  if (!isPlainObject(v)) return v;
  const out: Doc = {};
  for (const [k, x] of Object.entries(v)) out[k] = foldValue(x, strength);
  return out;
}

/** Operators whose operands are names or patterns, never compared under a collation. */
const VERBATIM_OPERATORS = new Set(['$type', '$regex', '$options', '$where', '$jsonSchema', '$exists', '$text']);

/**
 * Folds the literal strings a filter compares with. Strings starting with `$`
 * are left alone: inside `$expr` they are field paths.
 */
export function foldFilter(v: unknown, strength: 1 | 2): unknown {
  if (typeof v === 'string') return v.startsWith('$') ? v : foldString(v, strength);
  if (Array.isArray(v)) return v.map((x) => foldFilter(x, strength));
  if (!isPlainObject(v)) return v;
  const out: Doc = {};
  for (const [k, x] of Object.entries(v)) out[k] = VERBATIM_OPERATORS.has(k) ? x : foldFilter(x, strength);
  return out;
}
