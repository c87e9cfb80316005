import fs from 'node:fs';

/** CPU seconds (user + system) of the workerd processes under the stack's process (wrangler starts them). */
export function workerdCpuSeconds(root: number): number {
  const tick = 100; // USER_HZ on Linux
  const procs = new Map<number, { ppid: number; comm: string; cpu: number }>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    // After the name: state(0) ppid(1) pgrp(2) … utime(11) stime(12).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    procs.set(Number(pid), { ppid: Number(fields[1]), comm, cpu: (Number(fields[11]) + Number(fields[12])) / tick });
  }
  const under = (pid: number): boolean => {
    for (let at = procs.get(pid)?.ppid; at; at = procs.get(at)?.ppid) if (at === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, proc] of procs) if (proc.comm.includes('workerd') && under(pid)) total += proc.cpu;
  return total;
}
