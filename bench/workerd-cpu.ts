import { isWorkerd, processSnapshot, treeCpu } from './process-cpu';

/** CPU seconds (user + system) of the workerd processes under the stack's process (wrangler starts them). */
export function workerdCpuSeconds(root: number): number {
  return treeCpu(processSnapshot(), root, isWorkerd).part;
}
