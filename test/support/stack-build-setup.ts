import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWorker } from '../../scripts/workerd-direct';
import type { WorkerBuild } from '../../scripts/workerd-direct-options';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Worker bundled once per run as a deploy does; each file's stack serves it (test/support/realtime-stack.ts). */
    workerBuild: WorkerBuild;
  }
}

/**
 * Bundles the Worker once for the files that run whole stacks. Each `wrangler dev` start bundled it again and ran
 * wrangler's Node process and its proxy workerd beside the Worker's: about a third of a real-time file's CPU.
 */
export default function setup(project: TestProject) {
  const outdir = mkdtempSync(join(tmpdir(), 'rider-worker-build-'));
  project.provide('workerBuild', buildWorker(outdir));
  return () => rmSync(outdir, { recursive: true, force: true });
}
