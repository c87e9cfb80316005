import fs from 'node:fs';
import path from 'node:path';
import { Collection, type JournalSink } from './collection.js';
import { fail } from './errors.js';
import { normalizeIndexSpec } from './indexes.js';
import { DbFiles } from './journal.js';
import type { Doc } from './values.js';

/** Journal size (bytes) that triggers compaction, unless the snapshot is bigger. */
const COMPACT_MIN_BYTES = 16 << 20;
const LOCK_FILE = 'devdb.lock';

/** Dirs locked by this process; the pid in the lock file can't tell two in-process servers apart. */
const lockedInProcess = new Set<string>();

export class Database {
  readonly collections = new Map<string, Collection>();
  private readonly sink: JournalSink;

  constructor(
    readonly name: string,
    readonly files: DbFiles | undefined,
    onWrite: (db: Database) => void,
  ) {
    this.sink = files
      ? (record) => {
          files.append(record);
          onWrite(this);
        }
      : undefined;
  }

  collection(name: string): Collection | undefined {
    return this.collections.get(name);
  }

  /** Implicit creation on first write, as mongod does; views refuse writes. */
  ensureCollection(name: string): Collection {
    return this.writableCollection(name) ?? this.createCollection(name, {});
  }

  /** The collection a write targets, if it exists; a view fails with 166 as in mongod. */
  writableCollection(name: string): Collection | undefined {
    const coll = this.collections.get(name);
    if (coll?.isView) fail('CommandNotSupportedOnView', `Namespace ${coll.ns} is a view, not a collection`);
    return coll;
  }

  createCollection(name: string, options: Doc): Collection {
    validateCollectionName(name);
    const coll = new Collection(this.name, name, options, this.sink);
    this.collections.set(name, coll);
    this.sink?.({ o: 'create', c: name, opts: options });
    return coll;
  }

  dropCollection(name: string): Collection | undefined {
    const coll = this.collections.get(name);
    if (!coll) return undefined;
    this.collections.delete(name);
    this.sink?.({ o: 'drop', c: name });
    return coll;
  }

  replay(records: Iterable<Doc>): void {
    for (const rec of records) {
      const name = String(rec.c);
      switch (rec.o) {
        case 'create':
          this.collections.set(name, new Collection(this.name, name, (rec.opts as Doc) ?? {}, this.sink));
          break;
        case 'drop':
          this.collections.delete(name);
          break;
        case 'put':
          this.replayCollection(name).replayPut(rec.d as Doc);
          break;
        case 'del':
          this.collections.get(name)?.replayDelete(rec.id);
          break;
        case 'index':
          this.replayCollection(name).createIndex(normalizeIndexSpec(rec.spec), { replay: true });
          break;
        case 'dropIndex': {
          const coll = this.collections.get(name);
          if (coll?.indexes.has(String(rec.name))) coll.dropIndex(String(rec.name), { replay: true });
          break;
        }
        default:
          throw new Error(`devdb: unknown journal record type ${String(rec.o)} in database ${this.name}`);
      }
    }
  }

  private replayCollection(name: string): Collection {
    let coll = this.collections.get(name);
    if (!coll) {
      coll = new Collection(this.name, name, {}, this.sink);
      this.collections.set(name, coll);
    }
    return coll;
  }

  /** Records that rebuild the current state from nothing (snapshot content). */
  *stateRecords(): Generator<Doc> {
    for (const coll of this.collections.values()) {
      yield { o: 'create', c: coll.name, opts: coll.options };
      for (const index of coll.indexes.values()) yield { o: 'index', c: coll.name, spec: index.spec };
      for (const d of coll.docs.values()) yield { o: 'put', c: coll.name, d };
    }
  }
}

export interface StoreOptions {
  dataDir?: string;
  warn?: (msg: string) => void;
}

/**
 * All databases, in memory, with optional persistence. Mutations journal
 * into per-database buffers; `flush()` must run before a write is acknowledged.
 */
export class Store {
  readonly dbs = new Map<string, Database>();
  readonly dataDir: string | undefined;
  private readonly warn: (msg: string) => void;
  private readonly unflushed = new Set<Database>();
  private readonly markUnflushed = (db: Database): void => {
    this.unflushed.add(db);
  };

  constructor(opts: StoreOptions) {
    this.dataDir = opts.dataDir === undefined ? undefined : path.resolve(opts.dataDir);
    this.warn = opts.warn ?? (() => {});
    if (this.dataDir !== undefined) {
      fs.mkdirSync(this.dataDir, { recursive: true });
      acquireLock(this.dataDir);
      try {
        for (const name of DbFiles.listDatabases(this.dataDir)) {
          const db = this.newDatabase(name);
          db.replay(db.files!.load());
          this.dbs.set(name, db);
        }
      } catch (err) {
        releaseLock(this.dataDir);
        throw err;
      }
    }
  }

  db(name: string): Database | undefined {
    return this.dbs.get(name);
  }

  ensureDb(name: string): Database {
    let db = this.dbs.get(name);
    if (!db) {
      validateDbName(name);
      db = this.newDatabase(name);
      this.dbs.set(name, db);
    }
    return db;
  }

  dropDatabase(name: string): void {
    const db = this.dbs.get(name);
    if (!db) return;
    this.dbs.delete(name);
    this.unflushed.delete(db);
    db.files?.destroy();
  }

  /** Appends every buffered journal record to its file; compacts oversized journals. */
  flush(): void {
    if (this.unflushed.size === 0) return;
    const dbs = [...this.unflushed];
    this.unflushed.clear();
    for (const db of dbs) {
      const files = db.files!;
      files.flush();
      if (files.journalBytes > Math.max(COMPACT_MIN_BYTES, files.snapshotBytes)) files.compact(db.stateRecords());
    }
  }

  /** fdatasync every journal written since the last call. */
  sync(): void {
    for (const db of this.dbs.values()) db.files?.sync();
  }

  close(): void {
    this.flush();
    if (this.dataDir === undefined) return;
    for (const db of this.dbs.values()) {
      const files = db.files!;
      if (files.journalBytes > 0) files.compact(db.stateRecords());
      files.close();
    }
    releaseLock(this.dataDir);
  }

  private newDatabase(name: string): Database {
    const files = this.dataDir === undefined ? undefined : new DbFiles(DbFiles.dirFor(this.dataDir, name), this.warn);
    return new Database(name, files, this.markUnflushed);
  }
}

function acquireLock(dataDir: string): void {
  if (lockedInProcess.has(dataDir)) throw new Error(`devdb: data dir ${dataDir} is already open in this process`);
  const lockPath = path.join(dataDir, LOCK_FILE);
  if (fs.existsSync(lockPath)) {
    const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
      throw new Error(`devdb: data dir ${dataDir} is in use by process ${pid}: stop it with \`kill ${pid}\``);
    }
  }
  fs.writeFileSync(lockPath, String(process.pid));
  lockedInProcess.add(dataDir);
}

function releaseLock(dataDir: string): void {
  lockedInProcess.delete(dataDir);
  fs.rmSync(path.join(dataDir, LOCK_FILE), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function validateDbName(name: string): void {
  if (!name || /[/\\. "$*<>:|?\0]/.test(name) || name.length > 63) {
    fail('InvalidNamespace', `Invalid database name: '${name}'`);
  }
}

function validateCollectionName(name: string): void {
  if (!name || name.includes('\0') || name.startsWith('$') || name.startsWith('.') || name.endsWith('.')) {
    fail('InvalidNamespace', `Invalid collection name: '${name}'`);
  }
}
