import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest queues files project by project, by name. Queued instead: first the workerd files, whose runtimes
 * take the longest to start (the file that needs a runtime of its own first of all), so the runtimes start
 * at once and not after the Node files; then the files that start a local stack or a browser of their own
 * (test/e2e, test/realtime: long, mostly waiting on other processes), so none is left to run alone at the end.
 */
export default class RuntimesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      if (file.project.name === 'worker-own-runtime') return 0;
      if (file.project.name === 'worker') return 1;
      return /\/test\/(e2e|realtime)\//.test(file.moduleId) ? 2 : 3;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
