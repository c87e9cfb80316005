import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { holding, type ProcessHolding, perRider, processTree, recordPeaks } from '../../../bench/scale/processes';

// A parent that starts a child, both plain node (no "wrangler" in any command line), and says the child's pid.
const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
console.log(child.pid);
setInterval(() => {}, 1000);
process.on('SIGTERM', () => { child.kill(); process.exit(0); });
`;

let parent: ChildProcess | undefined;
afterEach(() => {
  parent?.kill('SIGTERM');
});

function startTree(): Promise<{ parent: number; child: number }> {
  parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    parent!.stdout!.once('data', (chunk: Buffer) => resolve({ parent: parent!.pid!, child: Number(chunk.toString()) }));
  });
}

const reading = (pid: number, openFiles: number, residentBytes: number): ProcessHolding => ({
  pid,
  name: 'workerd',
  openFiles,
  openFileLimit: 20_000,
  residentBytes,
  cpuSeconds: 0,
});

describe("the scale harness's process readings", () => {
  it('finds every process under the one the stack started, whatever its command line', async () => {
    const tree = await startTree();
    expect(processTree(tree.parent)).toEqual(expect.arrayContaining([tree.parent, tree.child]));
    expect(processTree(process.pid)).toEqual(expect.arrayContaining([tree.parent, tree.child]));
  });

  it("reads a process's open files against its own limit, its memory and CPU", async () => {
    const tree = await startTree();
    const child = holding(tree.child)!;
    expect(child.name).toBe('node');
    // stdin, stdout, stderr at least, and the limit the child inherited from this process.
    expect(child.openFiles).toBeGreaterThanOrEqual(3);
    expect(child.openFileLimit).toBe(holding(process.pid)!.openFileLimit);
    expect(child.residentBytes).toBeGreaterThan(1e6);
    expect(child.cpuSeconds).toBeGreaterThanOrEqual(0);
  });

  it('reads nothing for a process that is gone', () => {
    expect(holding(2 ** 22 + 1)).toBeNull();
    expect(processTree(2 ** 22 + 1)).toEqual([]);
  });

  it('prices each rider by what a process gained since no rider was connected', () => {
    const [workerd, started] = perRider([reading(7, 48, 100e6)], [reading(7, 4048, 300e6), reading(9, 10, 1e6)], 1000);
    expect(workerd).toMatchObject({ pid: 7, openFiles: 4048, filesPerRider: 4, bytesPerRider: 200e3 });
    // A process that was not there before counts from zero.
    expect(started).toMatchObject({ pid: 9, filesPerRider: 0.01 });
  });

  it('keeps the most each process held', () => {
    const peaks = new Map<number, ProcessHolding>();
    recordPeaks(peaks, [reading(2, 15_000, 5)]);
    recordPeaks(peaks, [reading(2, 9_000, 8)]);
    expect(peaks.get(2)).toMatchObject({ openFiles: 15_000, residentBytes: 8 });
  });
});
