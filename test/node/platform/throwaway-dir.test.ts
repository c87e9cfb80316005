import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryBackedRoot, throwawayDir } from '../../support/throwaway-dir';

const root = mkdtempSync(join(tmpdir(), 'throwaway-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('throwaway folders of test and bench runs', () => {
  it('makes a new folder under TMPDIR when it is set, whatever memory offers', () => {
    const other = join(root, 'other');
    const dir = throwawayDir('rider-x-', { env: { TMPDIR: root }, memoryRoot: other });
    expect(dirname(dir)).toBe(root);
    expect(dir).toMatch(/\/rider-x-[^/]+$/);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(throwawayDir('rider-x-', { env: { TMPDIR: root }, memoryRoot: other })).not.toBe(dir);
  });

  it('goes to the memory-backed folder without TMPDIR, and to the system folder when there is none', () => {
    expect(dirname(throwawayDir('rider-y-', { env: {}, memoryRoot: root }))).toBe(root);
    const fallback = throwawayDir('rider-y-', { env: {}, memoryRoot: null });
    try {
      expect(dirname(fallback)).toBe(tmpdir());
    } finally {
      rmSync(fallback, { recursive: true, force: true });
    }
  });

  it('takes a memory-backed folder only when it exists, is writable and has the room', () => {
    expect(memoryBackedRoot(root, 1)).toBe(root);
    expect(memoryBackedRoot(join(root, 'missing'), 1)).toBeNull();
    // More room than any filesystem here has.
    expect(memoryBackedRoot(root, Number.MAX_SAFE_INTEGER)).toBeNull();
  });
});
