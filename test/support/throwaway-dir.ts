import { accessSync, constants, mkdtempSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Where a local stack keeps state nobody keeps: its Durable Objects' storage. workerd syncs each local storage
// write to disk on its one thread, so on a disk-backed /tmp a burst of writes holds every request behind it: with
// 1,000 sockets closing at once (a presence write each), a health check waited 3.1 s on disk and 0.5 s in memory.
// Production storage has no such wait.

/** Linux's memory-backed filesystem. */
export const MEMORY_BACKED = '/dev/shm';
/** Free room it must have: a stack's state stays far below this (docker gives /dev/shm 64 MB by default). */
export const ROOM_NEEDED_BYTES = 1024 ** 3;

/** `folder` when it exists, is writable and has the room, else null. */
export function memoryBackedRoot(folder = MEMORY_BACKED, roomNeeded = ROOM_NEEDED_BYTES): string | null {
  try {
    accessSync(folder, constants.W_OK);
    const { bavail, bsize } = statfsSync(folder);
    return bavail * bsize >= roomNeeded ? folder : null;
  } catch {
    return null;
  }
}

/**
 * A new folder named `prefix…` for throwaway files: under TMPDIR when it is set (the caller's choice wins), else in
 * memory where the machine has room for it, else in the system's temporary folder.
 */
export function throwawayDir(
  prefix: string,
  { env = process.env, memoryRoot = memoryBackedRoot() }: { env?: NodeJS.ProcessEnv; memoryRoot?: string | null } = {},
): string {
  return mkdtempSync(join(env.TMPDIR || memoryRoot || tmpdir(), prefix));
}
