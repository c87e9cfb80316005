import fs from 'node:fs';
import path from 'node:path';
import { type Doc, deserialize, serialize } from './values.js';

const SNAPSHOT = 'snapshot.bson';
const SNAPSHOT_TMP = 'snapshot.bson.tmp';
const JOURNAL_RE = /^journal-(\d+)\.bson$/;
const DROPPED_MARK = '.dropped-';
const WRITE_CHUNK = 1 << 20;

/** Records in one file, plus the offset after the last complete one. */
interface ParsedFile {
  records: Doc[];
  validBytes: number;
  torn: boolean;
}

/**
 * Length-prefixed BSON records back to back. A record that runs past the end
 * of the file or fails to parse ends the file: that is what a write cut short
 * by a crash looks like.
 */
function parseRecords(buf: Buffer): ParsedFile {
  const records: Doc[] = [];
  let off = 0;
  while (off < buf.length) {
    if (buf.length - off < 5) return { records, validBytes: off, torn: true };
    const size = buf.readInt32LE(off);
    if (size < 5 || off + size > buf.length || buf[off + size - 1] !== 0) {
      return { records, validBytes: off, torn: true };
    }
    try {
      records.push(deserialize(buf.subarray(off, off + size)));
    } catch {
      return { records, validBytes: off, torn: true };
    }
    off += size;
  }
  return { records, validBytes: off, torn: false };
}

function writeAll(fd: number, buf: Uint8Array): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * On-disk state of one database: `snapshot.bson` (generation g, complete
 * state) plus `journal-g.bson` (changes since). Compaction writes generation
 * g+1 to a temp file, renames it over the snapshot, then starts journal-(g+1);
 * a crash at any point leaves either the old or the new pair intact.
 */
export class DbFiles {
  private gen = 0;
  private fd: number | undefined;
  private pending: Uint8Array[] = [];
  private dirty = false;
  private journalSize = 0;
  private snapshotSize = 0;

  constructor(
    readonly dir: string,
    private readonly warn: (msg: string) => void,
  ) {}

  static dirFor(dataDir: string, dbName: string): string {
    return path.join(dataDir, encodeURIComponent(dbName));
  }

  /** Database names with data on disk; removes leftovers of interrupted drops. */
  static listDatabases(dataDir: string): string[] {
    if (!fs.existsSync(dataDir)) return [];
    const names: string[] = [];
    for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if (entry.name.includes(DROPPED_MARK)) {
        fs.rmSync(path.join(dataDir, entry.name), { recursive: true, force: true });
        continue;
      }
      names.push(decodeURIComponent(entry.name));
    }
    return names;
  }

  private journalPath(gen = this.gen): string {
    return path.join(this.dir, `journal-${gen}.bson`);
  }

  get journalBytes(): number {
    return this.journalSize;
  }

  get snapshotBytes(): number {
    return this.snapshotSize;
  }

  /** Snapshot records followed by journal records, in apply order. */
  load(): Doc[] {
    if (!fs.existsSync(this.dir)) return [];
    const records: Doc[] = [];
    const snapshotPath = path.join(this.dir, SNAPSHOT);
    if (fs.existsSync(snapshotPath)) {
      const buf = fs.readFileSync(snapshotPath);
      const parsed = parseRecords(buf);
      const [header] = parsed.records;
      const last = parsed.records[parsed.records.length - 1];
      if (parsed.torn || header?.o !== 'header' || last?.o !== 'end') {
        // The snapshot is only ever renamed into place complete, so this is
        // real corruption; refusing to start beats silently losing data.
        throw new Error(`devdb: corrupt snapshot ${snapshotPath}`);
      }
      this.gen = Number(header.gen);
      this.snapshotSize = buf.length;
      records.push(...parsed.records.slice(1, -1));
    }
    const journalPath = this.journalPath();
    if (fs.existsSync(journalPath)) {
      const buf = fs.readFileSync(journalPath);
      const parsed = parseRecords(buf);
      if (parsed.torn) {
        this.warn(
          `devdb: discarding ${buf.length - parsed.validBytes} bytes of incomplete trailing journal record in ${journalPath}`,
        );
        fs.truncateSync(journalPath, parsed.validBytes);
      }
      this.journalSize = parsed.validBytes;
      records.push(...parsed.records);
    }
    for (const name of fs.readdirSync(this.dir)) {
      const m = JOURNAL_RE.exec(name);
      if (name === SNAPSHOT_TMP || (m && Number(m[1]) !== this.gen))
        fs.rmSync(path.join(this.dir, name), { force: true });
    }
    return records;
  }

  append(record: Doc): void {
    this.pending.push(serialize(record));
  }

  /** Hands pending records to the OS; after this they survive a process kill. */
  flush(): void {
    if (this.pending.length === 0) return;
    const buf = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    if (this.fd === undefined) {
      fs.mkdirSync(this.dir, { recursive: true });
      this.fd = fs.openSync(this.journalPath(), 'a');
    }
    try {
      writeAll(this.fd, buf);
    } catch (err) {
      // Cut off a partial record so later appends don't land behind garbage
      // (which would hide them from replay).
      try {
        fs.ftruncateSync(this.fd, this.journalSize);
      } catch {
        // The original error is the one worth reporting.
      }
      throw err;
    }
    this.journalSize += buf.length;
    this.dirty = true;
  }

  /** Forces flushed records to stable storage (power-loss durability). */
  sync(): void {
    if (this.dirty && this.fd !== undefined) {
      fs.fdatasyncSync(this.fd);
      this.dirty = false;
    }
  }

  /** Writes `state` (records that rebuild the database) as the next snapshot generation. */
  compact(state: Iterable<Doc>): void {
    this.flush();
    fs.mkdirSync(this.dir, { recursive: true });
    const next = this.gen + 1;
    const tmpPath = path.join(this.dir, SNAPSHOT_TMP);
    const fd = fs.openSync(tmpPath, 'w');
    let size = 0;
    try {
      let chunk: Uint8Array[] = [];
      let chunkBytes = 0;
      const push = (rec: Doc): void => {
        const bytes = serialize(rec);
        chunk.push(bytes);
        chunkBytes += bytes.length;
        if (chunkBytes >= WRITE_CHUNK) {
          writeAll(fd, Buffer.concat(chunk));
          size += chunkBytes;
          chunk = [];
          chunkBytes = 0;
        }
      };
      push({ o: 'header', format: 'devdb', version: 1, gen: next });
      for (const rec of state) push(rec);
      push({ o: 'end' });
      writeAll(fd, Buffer.concat(chunk));
      size += chunkBytes;
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmpPath, path.join(this.dir, SNAPSHOT));
    fsyncDir(this.dir);
    const oldJournal = this.journalPath();
    this.closeJournal();
    fs.rmSync(oldJournal, { force: true });
    this.gen = next;
    this.journalSize = 0;
    this.snapshotSize = size;
  }

  close(): void {
    this.flush();
    this.sync();
    this.closeJournal();
  }

  /** dropDatabase: an atomic rename first, so a crash mid-delete can't resurrect data. */
  destroy(): void {
    this.pending = [];
    this.closeJournal();
    if (!fs.existsSync(this.dir)) return;
    const doomed = `${this.dir}${DROPPED_MARK}${process.pid}-${Date.now()}`;
    fs.renameSync(this.dir, doomed);
    fs.rmSync(doomed, { recursive: true, force: true });
    this.gen = 0;
    this.journalSize = 0;
    this.snapshotSize = 0;
  }

  private closeJournal(): void {
    if (this.fd !== undefined) {
      fs.closeSync(this.fd);
      this.fd = undefined;
      this.dirty = false;
    }
  }
}
