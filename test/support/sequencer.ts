import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest queues files project by project, by name. Queued instead: first the files that start whole local stacks
 * (test/e2e: `npm run dev` and its restarts, a minute each, mostly waiting on the processes they start), so their
 * waiting overlaps the CPU-bound workerd files rather than trailing them; then the workerd files, whose runtimes
 * take the longest to start (the file that needs a runtime of its own first of all); then the real-time files and
 * the rest.
 */
export default class StacksFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      if (/\/test\/e2e\//.test(file.moduleId)) return 0;
      if (file.project.name === 'worker-own-runtime') return 1;
      if (file.project.name === 'worker') return 2;
      return /\/test\/realtime\//.test(file.moduleId) ? 3 : 4;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
