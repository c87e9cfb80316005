// Runs MongoDB's unified-format CRUD tests (mongodb/specifications source/crud/tests/unified, kept outside the
// repository: their licence forbids committing them) through the official driver against devdb or --uri.
// Usage: npm run devdb:conformance -- <dir of .json tests> [--uri mongodb://...] [--filter text] [--no-events] [--verbose]
import fs from 'node:fs';
import path from 'node:path';
import { BSON } from 'bson';
import { MongoBulkWriteError, MongoClient, MongoServerError } from 'mongodb';
import { startDevDb } from '../src/server.js';
import { checkEvents, monitoringOptions, observe } from './unified-events.js';
import { assertMatches, type MatchContext, MatchError } from './unified-match.js';
import { BULK_FIELDS, runOperation, UNSUPPORTED_OPERATIONS, UnsupportedOperation } from './unified-operations.js';

type Doc = Record<string, unknown>;

/** expectEvents mostly checks what the driver sends; `--no-events` measures the server alone. */
let checkEventsFlag = true;

/** What devdb claims to be: a MongoDB 7.0 standalone without auth or client-side encryption. */
const SERVER = { version: [7, 0, 0], topology: 'single' };

function versionOf(v: string): number[] {
  return v.split('.').map((p) => Number(p) || 0);
}

function cmpVersion(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** null when runnable, else why not. */
function unmet(reqs: Doc[] | undefined): string | null {
  if (!reqs || reqs.length === 0) return null;
  const reasons = reqs.map((r) => {
    if (r.minServerVersion && cmpVersion(SERVER.version, versionOf(String(r.minServerVersion))) < 0)
      return `needs server >= ${r.minServerVersion}`;
    if (r.maxServerVersion && cmpVersion(SERVER.version, versionOf(String(r.maxServerVersion))) > 0)
      return `needs server <= ${r.maxServerVersion}`;
    if (Array.isArray(r.topologies) && !r.topologies.includes(SERVER.topology))
      return `needs topology ${r.topologies.join('/')}`;
    if (r.serverless === 'require') return 'needs serverless';
    if (r.auth === true) return 'needs auth';
    if (r.csfle === true) return 'needs csfle';
    if (r.serverParameters) return 'needs server parameters';
    return null;
  });
  return reasons.includes(null) ? null : (reasons[0] ?? 'unmet');
}

interface Outcome {
  status: 'pass' | 'fail' | 'skip';
  reason?: string;
}

function isClientError(err: unknown): boolean {
  return !(err instanceof MongoServerError);
}

function checkError(expected: Doc, err: unknown, ctx: MatchContext): void {
  const e = err as MongoServerError & { result?: object; writeErrors?: { code: number }[] };
  if (expected.isClientError !== undefined && expected.isClientError !== isClientError(err))
    throw new MatchError(`expected isClientError=${String(expected.isClientError)}, got ${String(err)}`);
  if (typeof expected.errorContains === 'string') {
    if (!String(e.message).toLowerCase().includes(expected.errorContains.toLowerCase()))
      throw new MatchError(`error "${e.message}" lacks "${expected.errorContains}"`);
  }
  const code = e.code ?? (err instanceof MongoBulkWriteError ? e.writeErrors?.[0]?.code : undefined);
  if (expected.errorCode !== undefined && code !== expected.errorCode)
    throw new MatchError(`expected code ${String(expected.errorCode)}, got ${String(code)}: ${e.message}`);
  if (expected.errorCodeName !== undefined && e.codeName !== expected.errorCodeName)
    throw new MatchError(`expected codeName ${String(expected.errorCodeName)}, got ${String(e.codeName)}`);
  for (const label of (expected.errorLabelsContain as string[] | undefined) ?? [])
    if (!e.hasErrorLabel?.(label)) throw new MatchError(`missing error label ${label}`);
  for (const label of (expected.errorLabelsOmit as string[] | undefined) ?? [])
    if (e.hasErrorLabel?.(label)) throw new MatchError(`unexpected error label ${label}`);
  if (expected.errorResponse !== undefined) assertMatches(expected.errorResponse, e.errorResponse, ctx);
  if (expected.expectResult !== undefined) {
    const result = e.result ? Object.fromEntries(BULK_FIELDS.map((f) => [f, (e.result as Doc)[f]])) : undefined;
    assertMatches(expected.expectResult, result, ctx);
  }
}

/** Documents from cursors are root-level, so they may carry extra fields; other arrays (distinct) may not. */
const ITERABLE_OPERATIONS = new Set(['find', 'aggregate', 'listCollections', 'listIndexes', 'listDatabases']);

function matchResult(name: string, expected: unknown, actual: unknown, ctx: MatchContext): void {
  if (!ITERABLE_OPERATIONS.has(name) || !Array.isArray(expected)) {
    assertMatches(expected, actual, ctx);
    return;
  }
  if (!Array.isArray(actual) || actual.length !== expected.length) {
    throw new MatchError(`expected ${expected.length} documents, got ${JSON.stringify(actual)}`);
  }
  for (const [i, e] of expected.entries()) assertMatches(e, actual[i], ctx, true, `[${i}]`);
}

async function seed(client: MongoClient, initialData: Doc[] | undefined): Promise<void> {
  for (const data of initialData ?? []) {
    const db = client.db(String(data.databaseName));
    const name = String(data.collectionName);
    await db.dropCollection(name).catch(() => {});
    await db.createCollection(name, (data.createOptions ?? {}) as Doc);
    const docs = data.documents as Doc[];
    if (docs.length) await db.collection(name).insertMany(docs);
  }
}

async function createEntities(uri: string, specs: Doc[], entities: Map<string, unknown>): Promise<MongoClient[]> {
  const clients: MongoClient[] = [];
  for (const spec of specs) {
    const [kind, raw] = Object.entries(spec)[0] as [string, Doc];
    const id = String(raw.id);
    if (kind === 'client') {
      const options = { serverSelectionTimeoutMS: 3000, ...(raw.uriOptions as Doc), ...monitoringOptions(raw) };
      const client = new MongoClient(uri, options);
      observe(id, client, raw);
      clients.push(client);
      entities.set(id, client);
    } else if (kind === 'database') {
      const client = entities.get(String(raw.client)) as MongoClient;
      entities.set(id, client.db(String(raw.databaseName), raw.databaseOptions as Doc));
    } else if (kind === 'collection') {
      const db = entities.get(String(raw.database)) as ReturnType<MongoClient['db']>;
      entities.set(id, db.collection(String(raw.collectionName), raw.collectionOptions as Doc));
    } else {
      throw new UnsupportedOperation(`entity type ${kind}`);
    }
  }
  return clients;
}

async function runTest(uri: string, file: Doc, test: Doc, admin: MongoClient): Promise<Outcome> {
  const why = unmet(file.runOnRequirements as Doc[]) ?? unmet(test.runOnRequirements as Doc[]);
  if (why) return { status: 'skip', reason: why };
  if (test.skipReason) return { status: 'skip', reason: String(test.skipReason) };
  const ops = test.operations as Doc[];
  const unsupported = ops.find((op) => UNSUPPORTED_OPERATIONS.has(String(op.name)));
  if (unsupported) return { status: 'skip', reason: `unsupported operation ${String(unsupported.name)}` };
  await seed(admin, file.initialData as Doc[]);
  const entities = new Map<string, unknown>();
  const ctx: MatchContext = { entities };
  const clients = await createEntities(uri, (file.createEntities ?? []) as Doc[], entities);
  try {
    for (const [i, op] of ops.entries()) {
      let result: unknown;
      let error: unknown;
      try {
        result = await runOperation(entities.get(String(op.object)), String(op.name), (op.arguments ?? {}) as Doc);
      } catch (err) {
        if (err instanceof UnsupportedOperation) throw err;
        error = err;
      }
      const where = `operation ${i} (${String(op.name)})`;
      try {
        if (op.expectError) {
          if (error === undefined) throw new MatchError(`expected an error, got ${JSON.stringify(result)}`);
          checkError(op.expectError as Doc, error, ctx);
        } else if (error !== undefined) {
          throw new MatchError(`unexpected error: ${(error as Error).message}`);
        } else if (op.expectResult !== undefined) {
          matchResult(String(op.name), op.expectResult, result, ctx);
        }
      } catch (err) {
        throw new MatchError(`${where}: ${(err as Error).message}`);
      }
      if (typeof op.saveResultAsEntity === 'string') entities.set(op.saveResultAsEntity, result);
    }
    if (checkEventsFlag) checkEvents(test.expectEvents as Doc[] | undefined, ctx);
    for (const expected of (test.outcome as Doc[] | undefined) ?? []) {
      const coll = admin.db(String(expected.databaseName)).collection(String(expected.collectionName));
      const actual = await coll.find({}, { sort: { _id: 1 } }).toArray();
      try {
        assertMatches(expected.documents, actual, ctx, false);
      } catch (err) {
        throw new MatchError(`outcome ${String(expected.collectionName)}: ${(err as Error).message}`);
      }
    }
    return { status: 'pass' };
  } catch (err) {
    if (err instanceof UnsupportedOperation) return { status: 'skip', reason: `unsupported ${err.message}` };
    return { status: 'fail', reason: err instanceof MatchError ? err.message : String((err as Error).stack ?? err) };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const verbose = args.includes('--verbose');
  checkEventsFlag = !args.includes('--no-events');
  const uriArg = flag('--uri');
  const filter = flag('--filter');
  const dir = args.find((a) => !a.startsWith('--'));
  if (!dir) throw new Error('usage: run-crud-unified <dir> [--uri U] [--filter text] [--verbose]');
  const server = uriArg ? undefined : await startDevDb({ port: 0, quiet: true });
  const uri = uriArg ?? server!.uri;
  const admin = new MongoClient(uri, { serverSelectionTimeoutMS: 3000 });
  const counts = { pass: 0, fail: 0, skip: 0 };
  const skipReasons = new Map<string, number>();
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && (!filter || f.includes(filter)));
  for (const name of files.sort()) {
    const file = BSON.EJSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'), { relaxed: true }) as Doc;
    for (const test of file.tests as Doc[]) {
      const outcome = await runTest(uri, file, test, admin);
      counts[outcome.status]++;
      const label = `${name}: ${String(test.description)}`;
      if (outcome.status === 'fail') console.log(`FAIL ${label}\n     ${outcome.reason}`);
      if (outcome.status === 'skip') skipReasons.set(outcome.reason!, (skipReasons.get(outcome.reason!) ?? 0) + 1);
      if (verbose && outcome.status !== 'fail') console.log(`${outcome.status.toUpperCase()} ${label}`);
    }
  }
  await admin.close();
  await server?.close();
  const ran = counts.pass + counts.fail;
  const pct = ran ? ((100 * counts.pass) / ran).toFixed(1) : '0';
  console.log(`\nskipped ${counts.skip}:`);
  for (const [reason, n] of [...skipReasons].sort((a, b) => b[1] - a[1])) console.log(`  ${n} ${reason}`);
  console.log(`\nran ${ran}, passed ${counts.pass}, failed ${counts.fail} (${pct}% of the tests that ran)`);
}

await main();
