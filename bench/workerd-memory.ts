import fs from 'node:fs';

/** The resident set (VmRSS, bytes) of the workerd processes under `root`, as bench/workerd-cpu.ts finds them (Linux). */
export function workerdRssBytes(root: number): number {
  const procs = new Map<number, { ppid: number; comm: string; rss: number }>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      continue;
    }
    const field = (name: string) => /^(\S+)\s*/.exec(status.split(`\n${name}:`)[1]?.trimStart() ?? '')?.[1] ?? '';
    const comm = status.slice('Name:'.length, status.indexOf('\n')).trim();
    procs.set(Number(pid), { ppid: Number(field('PPid')), comm, rss: Number(field('VmRSS')) * 1024 || 0 });
  }
  const under = (pid: number): boolean => {
    for (let at = procs.get(pid)?.ppid; at; at = procs.get(at)?.ppid) if (at === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, proc] of procs) if (proc.comm.includes('workerd') && under(pid)) total += proc.rss;
  return total;
}
