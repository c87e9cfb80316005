import fs from 'node:fs';
import path from 'node:path';

/** Written into the data folder while a server serves it, so a launcher can find and reuse it. */
export const SERVER_FILE = 'devdb-server.json';

export interface ServerRecord {
  pid: number;
  uri: string;
}

export function writeServerRecord(dataDir: string, record: ServerRecord): void {
  fs.writeFileSync(path.join(dataDir, SERVER_FILE), `${JSON.stringify(record)}\n`);
}

/** The record of the server that last served `dataDir`, if it left one; it may be stale. */
export function readServerRecord(dataDir: string): ServerRecord | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(path.join(dataDir, SERVER_FILE), 'utf8')) as Partial<ServerRecord>;
    if (Number.isInteger(record.pid) && typeof record.uri === 'string') return record as ServerRecord;
  } catch {
    // absent or unreadable: no server to reuse
  }
  return undefined;
}

/** Removes the record only if it is still `pid`'s, so a closing server never erases a successor's. */
export function removeServerRecord(dataDir: string, pid: number): void {
  if (readServerRecord(dataDir)?.pid === pid) fs.rmSync(path.join(dataDir, SERVER_FILE), { force: true });
}
