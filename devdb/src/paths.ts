import { resolve } from 'mingo/util';
import { type Doc, isPlainObject } from './values.js';

/** Marker for "path does not exist", distinct from an explicit null. */
export const MISSING: unique symbol = Symbol('missing');

/**
 * Values a dotted path reaches, with MongoDB's multikey rules: arrays met on
 * the way fan out over their elements (unless the next segment is a numeric
 * index), and an array at the leaf contributes each element. Missing paths
 * yield MISSING so sparse indexes can skip them.
 */
export function valuesAtPath(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(doc, path.split('.'), 0, out);
  return out;
}

function collect(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (i === parts.length) {
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(undefined);
      else out.push(...value);
    } else {
      out.push(value);
    }
    return;
  }
  const part = parts[i]!;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(part)) {
      const idx = Number(part);
      if (idx < value.length) collect(value[idx], parts, i + 1, out);
      else out.push(MISSING);
      return;
    }
    const before = out.length;
    for (const el of value) {
      if (isPlainObject(el)) collect(el, parts, i, out);
    }
    if (out.length === before) out.push(MISSING);
    return;
  }
  if (isPlainObject(value) && Object.hasOwn(value, part)) {
    collect(value[part], parts, i + 1, out);
    return;
  }
  out.push(MISSING);
}

/** Sets a dotted path, creating intermediate documents (used to seed upserts). */
export function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const next = cur[part];
    if (isPlainObject(next)) {
      cur = next;
    } else {
      const created: Doc = {};
      cur[part] = created;
      cur = created;
    }
  }
  cur[parts[parts.length - 1]!] = value;
}

/** A field name mingo reads and writes as a plain property: no path, array index, `$`, or name Object.prototype holds. */
export function plainName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && !(name in Object.prototype);
}

/**
 * mingo's `resolve(doc, path)` (an expression's `$a.b`), walking plain documents directly: a missing name or a
 * scalar on the way gives undefined, as in mingo; an array or another object on the way is left to `resolve`.
 */
export function pathReader(path: string): (doc: Doc) => unknown {
  const parts = path.split('.');
  if (!parts.every(plainName)) return (doc) => resolve(doc, path);
  return (doc) => {
    if (!isPlainObject(doc)) return resolve(doc, path);
    let value: unknown = doc;
    for (const part of parts) {
      if (isPlainObject(value)) value = value[part];
      else if (value === undefined || value === null || typeof value !== 'object') return undefined;
      else return resolve(doc, path);
    }
    return value;
  };
}
