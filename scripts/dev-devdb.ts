// The local stack's dev database: reuse a healthy one already serving the folder (say, one
// started by hand with `npm run devdb`), else start one as a child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import { readServerRecord, type ServerRecord } from '../devdb/src/server-file';
import type { LocalStackConfig } from './dev-config';

export type DevDbTarget = { uri: string; pid: number } & ({ reused: true } | { reused: false; child: ChildProcess });

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The server named in the folder's record, if that process lives and answers a ping. */
export async function runningDevDb(dataDir: string): Promise<ServerRecord | undefined> {
  const record = readServerRecord(dataDir);
  if (!record || !isAlive(record.pid)) return undefined;
  const client = new MongoClient(record.uri, { serverSelectionTimeoutMS: 1500, connectTimeoutMS: 1500 });
  try {
    await client.db('admin').command({ ping: 1 });
    return record;
  } catch {
    return undefined;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * Starts the dev database as a child in its own process group. Rejects with devdb's own
 * one-line reason if it exits before it is ready; `onExit` hears of a later exit.
 */
export function spawnDevDb(config: LocalStackConfig, onExit: (code: number | null) => void): Promise<DevDbTarget> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'devdb/src/cli.ts', '--port', String(config.dbPort), '--data', config.dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let ready = false;
  // Held back until ready: a start that fails is reported in one line, with devdb's reason.
  const early: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    if (ready) console.error(`[devdb] ${line}`);
    else early.push(line);
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      console.log(`[devdb] ${line}`);
      const match = /^devdb ready (mongodb:\/\/\S+)/.exec(line);
      if (!match) return;
      ready = true;
      for (const held of early.splice(0)) console.error(`[devdb] ${held}`);
      resolve({ uri: match[1]!, pid: child.pid!, reused: false, child });
    });
    // 'close' rather than 'exit': by then stderr has been read to the end.
    child.on('close', (code) => {
      if (ready) return onExit(code);
      if (early.length === 1) return reject(new Error(early[0]!.replace(/^devdb: /, '')));
      for (const held of early) console.error(`[devdb] ${held}`);
      reject(new Error(`exited with code ${code}`));
    });
  });
}

export async function startOrReuseDevDb(
  config: LocalStackConfig,
  onExit: (code: number | null) => void,
): Promise<DevDbTarget> {
  const running = await runningDevDb(config.dataDir);
  if (running) return { ...running, reused: true };
  return spawnDevDb(config, onExit);
}
