import { type ChildProcess, spawn } from 'node:child_process';
import { basename } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holding, type ProcessHolding, perRider, processTree, recordPeaks } from '../../../bench/scale/processes';

// A parent that starts a child, both plain node (no "wrangler" in any command line), and says the child's pid once
// the child has run its script. Each lives only while the stdin pipe from the one above stays open, so neither can
// outlive this test process, however it ends.
const CHILD = "process.stdin.on('end', () => process.exit(0)).resume(); console.log('ready');";
const PARENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', ${JSON.stringify(CHILD)}], { stdio: ['pipe', 'pipe', 'ignore'] });
child.stdout.once('data', () => console.log(child.pid));
process.stdin.on('end', () => process.exit(0)).resume();
`;

let parent: ChildProcess | undefined;
afterEach(async () => {
  const running = parent;
  parent = undefined;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.stdin!.end();
  await exited;
});

function startTree(): Promise<{ parent: number; child: number }> {
  parent = spawn(process.execPath, ['-e', PARENT], { stdio: ['pipe', 'pipe', 'inherit'] });
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

  it('leaves no process behind: the child goes with its parent', async () => {
    const tree = await startTree();
    const running = parent!;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.stdin!.end();
    await exited;
    await vi.waitFor(() => expect(holding(tree.child)).toBeNull(), { timeout: 30_000 });
  });

  it('names a process by its executable, whatever its main thread is called (Node 24 renames it MainThread)', async () => {
    const renamed = spawn(
      process.execPath,
      ['-e', `require('node:fs').writeFileSync('/proc/self/comm', 'MainThread'); ${CHILD}`],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    try {
      await new Promise((resolve) => renamed.stdout!.once('data', resolve));
      expect(holding(renamed.pid!)!.name).toBe(basename(process.execPath));
    } finally {
      const exited = new Promise((resolve) => renamed.once('exit', resolve));
      renamed.stdin!.end();
      await exited;
    }
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
