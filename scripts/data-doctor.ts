import { type AnyBulkWriteOperation, type Db, type Document, type Filter, ObjectId } from 'mongodb';
import {
  collidingEmails,
  examineDocument,
  type PlacedFinding,
  type Problem,
  type StoredShape,
  valueAt,
} from '../worker/platform/db/stored-shapes';
import { readId } from '../worker/platform/db/stored-values';

// The data doctor's scan and repair (`npm run db:doctor`, migrations-notes/data-doctor.md): every collection
// against its table of stored shapes (worker/data.ts STORED_SHAPES), in batches by _id. A repair writes one
// document only while every value it repairs is still as read, so it never overwrites a concurrent write and
// a second run finds nothing left to do.

export interface DoctorOptions {
  fix: boolean;
  batchSize: number;
  /** Only these collections (all the tables name when absent). */
  collections?: readonly string[];
}

/** One field's one problem in one collection: how many documents, which (ids only), and whether it is repaired. */
export interface ProblemTally {
  field: string;
  problem: Problem;
  repairable: boolean;
  count: number;
  ids: string[];
}

export interface CollectionReport {
  collection: string;
  scanned: number;
  /** Documents written by --fix (0 in a dry run). */
  repaired: number;
  /** Documents whose repair found them changed since read: run again to repair them. */
  changedMeanwhile: number;
  /** Where an interrupted --fix left off, when this run continued after it. */
  resumedAfter: string | null;
  problems: ProblemTally[];
}

export interface DoctorReport {
  fix: boolean;
  collections: CollectionReport[];
  /** Collections in the database that no table names: not the service's, not checked. */
  unknown: string[];
}

/** Ids kept per problem for the report; the count is always complete. */
const IDS_KEPT = 20;
const CHECKPOINTS = 'migration_checkpoints';
const LEAST_ID = new ObjectId('000000000000000000000000');
const checkpointId = (collection: string) => `db-doctor:${collection}`;

const idText = (id: unknown) => readId(id)?.toHexString() ?? JSON.stringify(id) ?? String(id);

/** Scans (and with `fix`, repairs) every collection a table names. */
export async function runDoctor(
  db: Db,
  shapes: Readonly<Record<string, StoredShape>>,
  options: DoctorOptions,
): Promise<DoctorReport> {
  const names = options.collections ?? Object.keys(shapes);
  const stored = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const collections: CollectionReport[] = [];
  for (const name of names) {
    const shape = shapes[name];
    if (!shape) throw new Error(`db:doctor: no stored shape names the collection "${name}"`);
    if (stored.includes(name)) collections.push(await examineCollection(db, name, shape, options));
  }
  return { fix: options.fix, collections, unknown: stored.filter((name) => !(name in shapes)).sort() };
}

async function examineCollection(
  db: Db,
  name: string,
  shape: StoredShape,
  options: DoctorOptions,
): Promise<CollectionReport> {
  const collection = db.collection(name);
  const colliding = await emailCollisions(db, name, shape);
  const checkpoints = db.collection<{ _id: string; lastId: unknown; migrated: number; done: boolean; updatedAt: Date }>(
    CHECKPOINTS,
  );
  const checkpoint = options.fix ? await checkpoints.findOne({ _id: checkpointId(name) }) : null;
  const resumeAfter = readId(checkpoint?.lastId);
  const report: CollectionReport = {
    collection: name,
    scanned: 0,
    repaired: checkpoint?.migrated ?? 0,
    changedMeanwhile: 0,
    resumedAfter: resumeAfter?.toHexString() ?? null,
    problems: [],
  };
  const tallies = new Map<string, ProblemTally>();
  const examine = async (docs: Document[]) => {
    const ops: AnyBulkWriteOperation[] = [];
    for (const doc of docs) {
      const findings = withCollisions(examineDocument(doc, shape), shape, colliding, idText(doc._id));
      for (const finding of findings) tally(tallies, finding, idText(doc._id));
      const op = repairOf(doc, shape, findings);
      if (op) ops.push(op);
    }
    report.scanned += docs.length;
    if (!options.fix || !ops.length) return;
    const result = await collection.bulkWrite(ops, { ordered: false });
    report.repaired += result.modifiedCount;
    report.changedMeanwhile += ops.length - result.matchedCount;
  };
  // Documents whose own _id is no ObjectId come first: few, and outside the resumable order. Comparing with the
  // least ObjectId parts the two, since a comparison only matches values of its own type.
  await examine(await collection.find({ _id: { $not: { $gte: LEAST_ID } } }).toArray());
  let after = resumeAfter;
  for (;;) {
    const filter: Filter<Document> = { _id: after ? { $gt: after } : { $gte: LEAST_ID } };
    const docs = await collection.find(filter).sort({ _id: 1 }).limit(options.batchSize).toArray();
    if (!docs.length) break;
    await examine(docs);
    after = readId(docs[docs.length - 1]!._id);
    if (options.fix)
      await checkpoints.updateOne(
        { _id: checkpointId(name) },
        { $set: { lastId: after, migrated: report.repaired, done: false, updatedAt: new Date() } },
        { upsert: true },
      );
    if (docs.length < options.batchSize) break;
  }
  // Done: the next run scans the whole collection again (and finds nothing left to repair).
  if (options.fix) await checkpoints.deleteOne({ _id: checkpointId(name) });
  report.problems = [...tallies.values()].sort((a, b) => a.field.localeCompare(b.field) || b.count - a.count);
  return report;
}

/** The ids of documents whose email field collides with another's once trimmed and lower-cased. */
async function emailCollisions(db: Db, name: string, shape: StoredShape): Promise<Map<string, Set<string>>> {
  const byField = new Map<string, Set<string>>();
  for (const [field, kind] of Object.entries(shape)) {
    if (kind !== 'email') continue;
    const rows = await db
      .collection(name)
      .find({}, { projection: { [field]: 1 } })
      .toArray();
    byField.set(field, collidingEmails(rows.map((row) => ({ id: idText(row._id), email: valueAt(row, field) }))));
  }
  return byField;
}

/** An email repair that would give two documents one address is withheld and listed as a collision. */
function withCollisions(
  findings: PlacedFinding[],
  shape: StoredShape,
  colliding: Map<string, Set<string>>,
  id: string,
): PlacedFinding[] {
  return findings.map((finding) =>
    shape[finding.field] === 'email' && finding.repair && colliding.get(finding.field)?.has(id)
      ? { problem: 'email collides with another once trimmed and lower-cased', field: finding.field, at: finding.at }
      : finding,
  );
}

function tally(tallies: Map<string, ProblemTally>, finding: PlacedFinding, id: string): void {
  const key = `${finding.field}\u0000${finding.problem}`;
  const entry = tallies.get(key) ?? {
    field: finding.field,
    problem: finding.problem,
    repairable: Boolean(finding.repair),
    count: 0,
    ids: [],
  };
  // One document counts once per field and problem, however many list elements hold it.
  if (entry.ids[entry.ids.length - 1] === id) return;
  entry.count += 1;
  if (entry.ids.length < IDS_KEPT) entry.ids.push(id);
  tallies.set(key, entry);
}

/**
 * The one update repairing a document, conditioned on every repaired value (and every field a derived one is
 * computed from) being still as read.
 */
export function repairOf(
  doc: Document,
  shape: StoredShape,
  findings: readonly PlacedFinding[],
): AnyBulkWriteOperation | undefined {
  const set: Record<string, unknown> = {};
  const filter: Record<string, unknown> = { _id: doc._id };
  const unchanged = (path: string) => {
    const value = valueAt(doc, path);
    filter[path] = value === undefined ? { $exists: false } : value;
  };
  for (const finding of findings) {
    if (!finding.repair) continue;
    set[finding.at] = finding.repair.value;
    unchanged(finding.at);
    const kind = shape[finding.field];
    if (kind && typeof kind !== 'string') for (const source of kind.from) unchanged(source);
  }
  return Object.keys(set).length ? { updateOne: { filter, update: { $set: set } } } : undefined;
}
