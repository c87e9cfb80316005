import type { Db, Document, ObjectId } from 'mongodb';
import { ACCOUNT_AND_EVENT_SPECS } from './legacy/accounts-events';
import { RIDING_SPECS } from './legacy/riding';
import { SOCIAL_SPECS } from './legacy/social';
import { type BaseContext, type CollectionSpec, type LegacyRiders, seededId } from './legacy/spec';
import { EXTRA_FIELDS, REMOVE, type VariantContext, variantsFor } from './legacy/variants';

export type { LegacyRiders } from './legacy/spec';

/**
 * Documents in every Live collection as years of schemaless writes left them. Per collection: the owner's clean
 * document (index 0), the neighbour's (1), one with unknown extra fields (2), then one document per field and
 * variant (test/support/legacy/variants.ts): the base document with that one field changed, so a failure names
 * the field and the kind of value behind it. Every fourth variant belongs to the neighbour, the rest to the owner.
 * Deterministic: the same seed, riders and `now` give the same documents and ids.
 */
export const LEGACY_SPECS: readonly CollectionSpec[] = [...ACCOUNT_AND_EVENT_SPECS, ...RIDING_SPECS, ...SOCIAL_SPECS];

export interface LegacyDocument {
  collection: string;
  /** `clean`, `extra fields`, or `<field>: <variant>`. */
  label: string;
  /** Whose document it is (owner or neighbour). */
  rider: ObjectId;
  doc: Document;
}

export interface LegacySet {
  documents: LegacyDocument[];
  /** The riders that own one companion profile each beside the owner and the neighbour; the test seeds their accounts. */
  soloRiders: ObjectId[];
  /** The documents of one collection, in order. */
  of(collection: string): LegacyDocument[];
  /** What a stored document is (`spots field name: null`), for failure messages. */
  describe(collection: string, id: unknown): string;
}

interface Plan {
  label: string;
  field?: string;
  apply?: (current: unknown, ctx: VariantContext) => unknown;
  extra?: boolean;
}

function plansOf(spec: CollectionSpec): Plan[] {
  const plans: Plan[] = [{ label: 'clean' }, { label: 'clean (neighbour)' }, { label: 'extra fields', extra: true }];
  for (const [field, kind] of Object.entries(spec.fields))
    for (const variant of variantsFor(kind))
      plans.push({ label: `${field}: ${variant.name}`, field, apply: variant.value });
  return plans;
}

const isIndex = (key: string) => /^\d+$/.test(key);

/** The value at a dotted path (`stays.0.createdAt`), or undefined. */
function valueAt(doc: Document, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | null)?.[key], doc);
}

/** Sets (or, for REMOVE, deletes) the value at a dotted path whose parents exist in the base document. */
function setAt(doc: Document, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  const parent = keys.reduce<Record<string, unknown> | undefined>(
    (node, key) => node?.[key] as Record<string, unknown> | undefined,
    doc,
  );
  if (!parent) return;
  if (value !== REMOVE) parent[last] = value;
  else if (Array.isArray(parent) && isIndex(last)) parent.splice(Number(last), 1);
  else delete parent[last];
}

/**
 * A stored document (one the service wrote, e.g. by ingestion) turned legacy: the `n`-th field and variant of
 * its collection's table (wrapping round), applied in place. Returns what was done, for failure messages.
 */
export function applyVariant(collection: string, doc: Document, n: number, seed = 'legacy'): string {
  const spec = LEGACY_SPECS.find((candidate) => candidate.collection === collection);
  if (!spec) throw new Error(`No legacy table for ${collection} (test/support/legacy/).`);
  const plans = plansOf(spec).filter((plan) => plan.field !== '_id');
  const plan = plans[n % plans.length]!;
  let danglingCount = 0;
  const ctx: VariantContext = { dangling: () => seededId(seed, 'dangling applied', danglingCount++) };
  if (plan.extra) Object.assign(doc, structuredClone(EXTRA_FIELDS));
  if (plan.field && plan.apply) setAt(doc, plan.field, plan.apply(valueAt(doc, plan.field), ctx));
  return `${collection} ${plan.label}`;
}

export function legacyDocuments(riders: LegacyRiders, options: { seed?: string; now?: Date } = {}): LegacySet {
  const seed = options.seed ?? 'legacy';
  const now = (options.now ?? new Date()).getTime();
  const plans = new Map(LEGACY_SPECS.map((spec) => [spec.collection, plansOf(spec)]));
  const id = (collection: string, index: number) =>
    seededId(seed, collection, index % (plans.get(collection)?.length ?? Number.MAX_SAFE_INTEGER));
  let danglingCount = 0;
  const variantContext: VariantContext = {
    dangling: (current) => {
      const missing = seededId(seed, 'dangling', danglingCount++);
      return typeof current === 'string' ? missing.toHexString() : missing;
    },
  };
  const soloRiders: ObjectId[] = [];
  const documents: LegacyDocument[] = [];
  for (const spec of LEGACY_SPECS) {
    plans.get(spec.collection)!.forEach((plan, index) => {
      // Index 3 is the first variant (`_id: hex string`): the owner's, like most.
      const rider = index === 1 || (index > 3 && index % 4 === 0) ? riders.neighbour : riders.owner;
      const ctx: BaseContext = {
        index,
        rider,
        riders,
        id,
        soloRider: (n) => {
          const solo = seededId(seed, 'solo riders', n);
          soloRiders.push(solo);
          return solo;
        },
        at: (ms) => new Date(now + ms),
      };
      const doc: Document = { _id: id(spec.collection, index), ...spec.base(ctx) };
      if (plan.extra) Object.assign(doc, structuredClone(EXTRA_FIELDS));
      if (plan.field && plan.apply) setAt(doc, plan.field, plan.apply(valueAt(doc, plan.field), variantContext));
      documents.push({ collection: spec.collection, label: plan.label, rider, doc });
    });
  }
  const labels = new Map(documents.map((d) => [`${d.collection}/${String(d.doc._id)}`, d.label]));
  return {
    documents,
    soloRiders,
    of: (collection) => documents.filter((d) => d.collection === collection),
    describe: (collection, docId) => `${collection} ${labels.get(`${collection}/${String(docId)}`) ?? String(docId)}`,
  };
}

/**
 * Writes a set into `db`, each collection in one unordered insert. A document a unique index refuses (two
 * variants that both leave a unique field out) could not be in a database that has the service's indexes;
 * its label is returned and the rest are stored.
 */
export async function seedLegacyDocuments(db: Db, set: LegacySet): Promise<string[]> {
  const refused: string[] = [];
  for (const spec of LEGACY_SPECS) {
    const entries = set.of(spec.collection);
    try {
      await db.collection(spec.collection).insertMany(
        entries.map((entry) => entry.doc),
        { ordered: false },
      );
    } catch (err) {
      const writeErrors = (err as { writeErrors?: { index?: number; err?: { index?: number } }[] }).writeErrors;
      if (!writeErrors) throw err;
      for (const writeError of writeErrors) {
        const index = writeError.index ?? writeError.err?.index;
        refused.push(`${spec.collection} ${index === undefined ? '?' : entries[index]?.label}`);
      }
    }
  }
  return refused;
}
