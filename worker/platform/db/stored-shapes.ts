import { Decimal128, ObjectId } from 'mongodb';
import { readDate, readId, readNumber, readRecord } from './stored-values';

/**
 * The kinds of stored value the service writes, as each domain's `stored-shapes.ts` declares them field by
 * field: the source of truth `npm run db:doctor` checks a database against (scripts/db-doctor.ts). The readers
 * beside each domain's documents.ts read what older code left; these say what the service itself stores.
 */
export type StoredKind =
  /** A Date. */
  | 'date'
  /** An ObjectId. */
  | 'id'
  /** A list of ObjectIds. */
  | 'ids'
  /** An id the service keeps as its 24-hex string (the Live shapes of event saves and stays). */
  | 'hexId'
  /** A finite number. */
  | 'number'
  /** A text. */
  | 'text'
  /** A list of texts. */
  | 'texts'
  /** A boolean. */
  | 'boolean'
  /** An email address, trimmed and lower-cased. */
  | 'email';

/** A field whose value the service computes from the rest of its document (a search field). */
export interface DerivedField {
  derived: (doc: Record<string, unknown>) => unknown;
  /** The fields it is computed from: a repair writes only while they are still as read. */
  from: readonly string[];
  /** What it is, for the doctor's report. */
  what: string;
}

/**
 * One collection's table: each field's kind, by dotted path; `a.$.b` is field `b` of each element of the
 * list `a`. Fields not named are not checked; a field may always be absent or null (readers default it).
 */
export type StoredShape = Readonly<Record<string, StoredKind | DerivedField>>;

/** Every collection of a domain, each with its table: the typecheck keeps a new collection from going unchecked. */
export type StoredShapes<C> = { readonly [name in keyof C]: StoredShape };

/** What is wrong with one stored value, in words an operator reads in the report. */
export type Problem =
  | 'date stored as text'
  | 'date stored as a number'
  | 'unreadable date'
  | 'id stored as text'
  | 'id stored as an ObjectId'
  | 'unreadable id'
  | 'number stored as text'
  | 'number stored as Decimal128 or Int64'
  | 'unreadable number'
  | 'text stored as another type'
  | 'list stored as one value'
  | 'unreadable list'
  | 'unreadable boolean'
  | 'email with spaces or capitals'
  | 'email collides with another once trimmed and lower-cased'
  | 'unreadable email'
  | 'search field missing or stale';

/** The fields most documents carry (StoredDoc): a table spreads these and adds its own. */
export const STAMPED = { _id: 'id', createdAt: 'date', updatedAt: 'date' } as const satisfies StoredShape;

/** A problem, and the value that repairs it in place when that is safe (else none: the doctor lists it). */
export interface Finding {
  problem: Problem;
  repair?: { value: unknown };
}

const HEX_ID = /^[0-9a-f]{24}$/i;

const isBsonNumber = (value: unknown) => {
  const type = (value as { _bsontype?: unknown } | null)?._bsontype;
  return type === 'Long' || type === 'Decimal128' || type === 'Int32' || type === 'Double';
};

/** The email as the service stores it: trimmed and lower-cased (worker/accounts/users/schema.ts). */
export const storedEmail = (email: string): string => email.trim().toLowerCase();

function classifyDate(value: unknown): Finding | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? { problem: 'unreadable date' } : undefined;
  const date = readDate(value);
  if (!date) return { problem: 'unreadable date' };
  const problem = typeof value === 'string' ? 'date stored as text' : 'date stored as a number';
  return { problem, repair: { value: date } };
}

function classifyId(value: unknown): Finding | undefined {
  if (value instanceof ObjectId) return undefined;
  const id = readId(value);
  return id ? { problem: 'id stored as text', repair: { value: id } } : { problem: 'unreadable id' };
}

function classifyIds(value: unknown): Finding | undefined {
  if (!Array.isArray(value)) {
    const id = readId(value);
    return id ? { problem: 'list stored as one value', repair: { value: [id] } } : { problem: 'unreadable list' };
  }
  if (value.every((item) => item instanceof ObjectId)) return undefined;
  const ids = value.map(readId);
  if (ids.some((id) => !id)) return { problem: 'unreadable id' };
  return { problem: 'id stored as text', repair: { value: ids } };
}

function classifyHexId(value: unknown): Finding | undefined {
  if (typeof value === 'string' && HEX_ID.test(value) && value === value.toLowerCase()) return undefined;
  const id = readId(value);
  return id
    ? { problem: 'id stored as an ObjectId', repair: { value: id.toHexString() } }
    : { problem: 'unreadable id' };
}

function classifyNumber(value: unknown): Finding | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { problem: 'unreadable number' };
  const number = readNumber(value);
  if (number === undefined) return { problem: 'unreadable number' };
  const problem = isBsonNumber(value) ? 'number stored as Decimal128 or Int64' : 'number stored as text';
  // A Long beyond 2^53 or a Decimal128 with more digits than a double holds is listed, not rounded.
  const exact = value instanceof Decimal128 || isBsonNumber(value) ? String(value) === String(number) : true;
  return exact ? { problem, repair: { value: number } } : { problem };
}

function classifyEmail(value: unknown): Finding | undefined {
  if (typeof value !== 'string' || value.trim() === '') return { problem: 'unreadable email' };
  const email = storedEmail(value);
  return email === value ? undefined : { problem: 'email with spaces or capitals', repair: { value: email } };
}

/** Whether a stored value is what the service stores for its kind; if not, what is wrong and its safe repair. */
export function classifyValue(value: unknown, kind: StoredKind): Finding | undefined {
  if (value === undefined || value === null) return undefined;
  switch (kind) {
    case 'date':
      return classifyDate(value);
    case 'id':
      return classifyId(value);
    case 'ids':
      return classifyIds(value);
    case 'hexId':
      return classifyHexId(value);
    case 'number':
      return classifyNumber(value);
    case 'text':
      return typeof value === 'string' ? undefined : { problem: 'text stored as another type' };
    case 'texts':
      if (typeof value === 'string') return { problem: 'list stored as one value', repair: { value: [value] } };
      return Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? undefined
        : { problem: 'unreadable list' };
    case 'boolean':
      return typeof value === 'boolean' ? undefined : { problem: 'unreadable boolean' };
    case 'email':
      return classifyEmail(value);
  }
}

/** A derived field that is missing or differs from what the service computes for its document. */
export function classifyDerived(doc: Record<string, unknown>, path: string, field: DerivedField): Finding | undefined {
  const expected = field.derived(doc);
  if (expected === undefined) return undefined;
  return sameValue(doc[path], expected)
    ? undefined
    : { problem: 'search field missing or stale', repair: { value: expected } };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One finding at one place in one document: `field` is the table's path, `at` the top-level field a repair sets. */
export interface PlacedFinding extends Finding {
  field: string;
  at: string;
}

/**
 * Every finding in one document, against its collection's table. A repair of a field inside a list
 * (`a.$.b`) sets the whole list `a`, with every element repaired that can be; a list holding an element
 * that cannot be repaired still gets the others repaired, and the rest is listed.
 */
export function examineDocument(doc: Record<string, unknown>, shape: StoredShape): PlacedFinding[] {
  const findings: PlacedFinding[] = [];
  const inLists: (PlacedFinding & { repairable: boolean })[] = [];
  const lists = new Map<string, unknown[]>();
  for (const [field, kind] of Object.entries(shape)) {
    if (typeof kind !== 'string') {
      const finding = classifyDerived(doc, field, kind);
      if (finding) findings.push({ ...finding, field, at: field });
      continue;
    }
    const [listPath, inner] = field.split('.$.') as [string, string | undefined];
    if (inner === undefined) {
      const finding = classifyValue(valueAt(doc, field), kind);
      // A document's own id cannot change in place (others name it): listed, never repaired.
      if (finding) findings.push({ problem: finding.problem, field, at: field, ...(field === '_id' ? {} : finding) });
      continue;
    }
    const list = valueAt(doc, listPath);
    if (!Array.isArray(list)) continue;
    list.forEach((element, index) => {
      const finding = classifyValue(valueAt(readRecord(element) ?? {}, inner), kind);
      if (!finding) return;
      if (finding.repair) {
        const copy = lists.get(listPath) ?? deepCopy(list);
        lists.set(listPath, copy);
        setAt(copy[index] as Record<string, unknown>, inner, finding.repair.value);
      }
      inLists.push({ problem: finding.problem, field, at: listPath, repairable: Boolean(finding.repair) });
    });
  }
  // Repairs inside one list share one write: the whole list with every repair made.
  return [
    ...findings,
    ...inLists.map(({ repairable, ...finding }) =>
      repairable ? { ...finding, repair: { value: lists.get(finding.at) } } : finding,
    ),
  ];
}

/** The value at a dotted path of a document. */
export function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let value: unknown = doc;
  for (const key of path.split('.')) {
    const record = readRecord(value);
    if (!record) return undefined;
    value = record[key];
  }
  return value;
}

function setAt(doc: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let target = doc;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys[keys.length - 1]!] = value;
}

/** A copy of a stored list deep enough to change its elements' fields, keeping ids, dates and BSON values. */
function deepCopy(list: unknown[]): unknown[] {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    const record = readRecord(value);
    return record ? Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, copy(inner)])) : value;
  };
  return list.map(copy);
}

/**
 * The ids of documents whose email, trimmed and lower-cased, is also another document's: their addresses are
 * not repaired (two accounts would claim one address), only listed for an operator to settle.
 */
export function collidingEmails(entries: readonly { id: string; email: unknown }[]): Set<string> {
  const byEmail = new Map<string, string[]>();
  for (const { id, email } of entries) {
    if (typeof email !== 'string' || email.trim() === '') continue;
    const key = storedEmail(email);
    byEmail.set(key, [...(byEmail.get(key) ?? []), id]);
  }
  return new Set([...byEmail.values()].filter((ids) => ids.length > 1).flat());
}
