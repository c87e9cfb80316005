import { describe, expect, it } from 'vitest';
import { isWorkerd, type ProcSource, parseStat, processSnapshot, treeCpu } from '../../../bench/process-cpu';

// A /proc/<pid>/stat line: pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
const statLine = (pid: number, name: string, ppid: number, utime: number, stime: number) =>
  `${pid} (${name}) S ${ppid} ${pid} ${pid} 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 5 0 0\n`;

describe('parseStat', () => {
  it('reads the parent, the name and user + system CPU in seconds', () => {
    expect(parseStat(42, statLine(42, 'workerd', 7, 150, 50))).toEqual({
      pid: 42,
      ppid: 7,
      name: 'workerd',
      seconds: 2,
    });
  });

  it('counts the fields from after the last parenthesis: a name may hold spaces and parentheses', () => {
    expect(parseStat(9, statLine(9, 'a) b (c', 1, 10, 0))).toEqual({ pid: 9, ppid: 1, name: 'a) b (c', seconds: 0.1 });
  });

  it('is undefined for text that is no stat line: a process caught as it exits reads empty', () => {
    expect(parseStat(3, '')).toBeUndefined();
    expect(parseStat(3, '3 (node) S')).toBeUndefined();
  });
});

describe('processSnapshot', () => {
  it('reads each process once and leaves out one that exited between the listing and its read', () => {
    const reads = new Map<number, number>();
    const source: ProcSource = {
      pids: () => [1, 2, 3],
      stat: (pid) => {
        reads.set(pid, (reads.get(pid) ?? 0) + 1);
        if (pid === 2) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
        return statLine(pid, 'node', 0, 100, 0);
      },
    };
    expect(processSnapshot(source).map((stat) => stat.pid)).toEqual([1, 3]);
    expect([...reads.values()]).toEqual([1, 1, 1]);
  });

  it('is empty where there is no /proc to list', () => {
    const source: ProcSource = {
      pids: () => {
        throw new Error('ENOENT');
      },
      stat: () => '',
    };
    expect(processSnapshot(source)).toEqual([]);
  });
});

describe('treeCpu', () => {
  // The runner (10) started workerd (11), which started nothing; an unrelated process (20) and its child (21).
  const snapshot = [
    { pid: 10, ppid: 1, name: 'node', seconds: 1 },
    { pid: 11, ppid: 10, name: 'workerd', seconds: 4 },
    { pid: 12, ppid: 10, name: 'esbuild', seconds: 0.5 },
    { pid: 20, ppid: 1, name: 'workerd', seconds: 100 },
    { pid: 21, ppid: 20, name: 'node', seconds: 100 },
  ];

  it("sums a process and everything beneath it, split into workerd and the runner's own", () => {
    expect(treeCpu(snapshot, 10, isWorkerd)).toEqual({ part: 4, rest: 1.5 });
  });

  it('counts everything as the part when no split is asked for', () => {
    expect(treeCpu(snapshot, 10)).toEqual({ part: 5.5, rest: 0 });
  });

  it('is zero for a process that has gone', () => {
    expect(treeCpu(snapshot, 99, isWorkerd)).toEqual({ part: 0, rest: 0 });
  });
});
