import { readdirSync, readFileSync } from 'node:fs';

// Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ), 100 on every platform Node supports.
const TICKS_PER_SECOND = 100;

/** One process as /proc/<pid>/stat tells it: its parent, its command name and the CPU it has used so far. */
export interface ProcessStat {
  pid: number;
  ppid: number;
  name: string;
  /** User + system CPU seconds. */
  seconds: number;
}

/** Reads one `/proc/<pid>/stat` text; undefined for text that is not one (a process caught mid-exit reads empty). */
export function parseStat(pid: number, text: string): ProcessStat | undefined {
  // The command name is in parentheses and may hold spaces and parentheses: the fields count from after the last one.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // After the name: state(0) ppid(1) pgrp(2) … utime(11) stime(12).
  const fields = text.slice(close + 2).split(' ');
  const [ppid, utime, stime] = [Number(fields[1]), Number(fields[11]), Number(fields[12])];
  if (![ppid, utime, stime].every(Number.isFinite)) return undefined;
  return { pid, ppid, name: text.slice(open + 1, close), seconds: (utime + stime) / TICKS_PER_SECOND };
}

/** Where a snapshot reads from: the process ids listed, and one process's stat text (throws once it has gone). */
export interface ProcSource {
  pids(): number[];
  stat(pid: number): string;
}

const PROC: ProcSource = {
  pids: () =>
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number),
  stat: (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8'),
};

/**
 * Every process, each stat read once: one that exits between the listing and its read is left out, never half read.
 * Empty off Linux.
 */
export function processSnapshot(source: ProcSource = PROC): ProcessStat[] {
  let pids: number[];
  try {
    pids = source.pids();
  } catch {
    return [];
  }
  return pids.flatMap((pid) => {
    let text: string;
    try {
      text = source.stat(pid);
    } catch {
      return [];
    }
    return parseStat(pid, text) ?? [];
  });
}

/**
 * The CPU seconds of a process and every process beneath it in one snapshot, split in two: the processes `part`
 * accepts (workerd under its runner) and the rest (the runner: wrangler or the direct runner's Node process).
 */
export function treeCpu(
  snapshot: ProcessStat[],
  rootPid: number,
  part: (stat: ProcessStat) => boolean = () => true,
): { part: number; rest: number } {
  const byPid = new Map(snapshot.map((stat) => [stat.pid, stat]));
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of snapshot) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const total = { part: 0, rest: 0 };
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    const stat = byPid.get(pid);
    if (stat) total[part(stat) ? 'part' : 'rest'] += stat.seconds;
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Whether a process is a workerd (the Worker's runtime), as opposed to the Node process that started it. */
export const isWorkerd = (stat: ProcessStat) => stat.name.includes('workerd');

/**
 * CPU seconds used so far by a process and every process beneath it (the Worker's workerd under wrangler):
 * unlike wall time, it does not grow when other work on a shared machine takes the cores. Undefined off Linux.
 */
export function treeCpuSeconds(rootPid: number): number | undefined {
  const snapshot = processSnapshot();
  if (!snapshot.length) return undefined;
  const { part, rest } = treeCpu(snapshot, rootPid);
  return part + rest;
}
