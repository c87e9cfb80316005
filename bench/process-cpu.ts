import { readdirSync, readFileSync } from 'node:fs';

// Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ), 100 on every platform Node supports.
const TICKS_PER_SECOND = 100;

/** One process's parent and the CPU it and its waited-for children used, from /proc/<pid>/stat (Linux). */
function stat(pid: string): { ppid: string; seconds: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields count from after it.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const [utime, stime] = [Number(fields[11]), Number(fields[12])];
    return { ppid: fields[1]!, seconds: (utime + stime) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by a process and every process beneath it (the Worker's workerd under wrangler):
 * unlike wall time, it does not grow when other work on a shared machine takes the cores. Undefined off Linux.
 */
export function treeCpuSeconds(rootPid: number): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const stats = new Map(pids.flatMap((pid) => (stat(pid) ? [[pid, stat(pid)!] as const] : [])));
  const children = new Map<string, string[]>();
  for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let total = 0;
  const queue = [String(rootPid)];
  while (queue.length) {
    const pid = queue.pop()!;
    total += stats.get(pid)?.seconds ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}
