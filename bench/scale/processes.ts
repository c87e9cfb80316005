import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * What the local stack's processes hold, read from /proc (Linux): the harness finds them by the pid of the process
 * it started (wrangler dev, or the direct runner), whatever each child is called, and measures open files and
 * memory per process so the limits it meets are measured, not guessed.
 */

/** `/proc/<pid>/stat` fields after the command name: state, then the parent pid. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name is in parentheses and may itself hold spaces or ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `root` and every process descending from it. */
export function processTree(root: number): number[] {
  if (!isRunning(root)) return [];
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const parent = Number(statFields(Number(name))[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const tree: number[] = [];
  for (const queue = [root]; queue.length; ) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

function isRunning(pid: number): boolean {
  try {
    readFileSync(`/proc/${pid}/stat`);
    return true;
  } catch {
    return false;
  }
}

export interface ProcessHolding {
  pid: number;
  /** The executable's short name (`workerd`, `node`). */
  name: string;
  openFiles: number;
  /** Soft limit on open files (`ulimit -n` as the process has it). */
  openFileLimit: number;
  residentBytes: number;
  cpuSeconds: number;
}

/** A process's open files, limit, resident memory and CPU so far; null once it is gone. */
export function holding(pid: number): ProcessHolding | null {
  try {
    const fields = statFields(pid);
    const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      pid,
      name: executableName(pid),
      openFiles: readdirSync(`/proc/${pid}/fd`).length,
      openFileLimit: Number(/Max open files\s+(\d+)/.exec(limits)?.[1] ?? Number.POSITIVE_INFINITY),
      residentBytes: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024,
      // utime + stime, in clock ticks (100 a second on Linux).
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100,
    };
  } catch {
    return null;
  }
}

/**
 * The executable's file name: `/proc/<pid>/comm` is the main thread's name, which Node 24 and later rename
 * (`MainThread`, `node-MainThread`) soon after start; comm only when the executable cannot be read.
 */
function executableName(pid: number): string {
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, ''));
  } catch {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  }
}

/** What every process of the tree under `root` holds now. */
export function treeHoldings(root: number): ProcessHolding[] {
  return processTree(root)
    .map(holding)
    .filter((h): h is ProcessHolding => h !== null);
}

/**
 * What each process gained per rider between two readings of the same tree (`before` with no rider connected):
 * open files and resident memory, by pid; a process started in between counts from zero.
 */
export function perRider(before: ProcessHolding[], after: ProcessHolding[], riders: number) {
  return after.map((h) => {
    const was = before.find((b) => b.pid === h.pid);
    return {
      pid: h.pid,
      name: h.name,
      openFiles: h.openFiles,
      openFileLimit: h.openFileLimit,
      residentBytes: h.residentBytes,
      filesPerRider: (h.openFiles - (was?.openFiles ?? 0)) / Math.max(1, riders),
      bytesPerRider: (h.residentBytes - (was?.residentBytes ?? 0)) / Math.max(1, riders),
    };
  });
}

/** Keeps, by pid, the most open files and the most resident memory any reading showed. */
export function recordPeaks(peaks: Map<number, ProcessHolding>, readings: ProcessHolding[]): void {
  for (const h of readings) {
    const was = peaks.get(h.pid);
    peaks.set(h.pid, {
      ...h,
      openFiles: Math.max(h.openFiles, was?.openFiles ?? 0),
      residentBytes: Math.max(h.residentBytes, was?.residentBytes ?? 0),
    });
  }
}
