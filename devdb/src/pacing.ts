/**
 * Long evaluations are written as generators that `yield` at pause points; a pause point only asks whether a
 * slice of time has passed, so the results never depend on how (or whether) the evaluation pauses.
 */
export type Paced<T> = Generator<void, T, void>;

/** Time one evaluation may hold the event loop before it lets other connections (and heartbeats) in. */
export const SLICE_MS = 10;
/** Items handled between two looks at the clock. */
const CHECK_EVERY = 64;

/** Decides when a paced evaluation pauses; `tick()` is cheap and called once per item. */
export interface Pacer {
  /** True when the evaluation should yield now. */
  tick(): boolean;
  /** Called when the evaluation resumes after a pause. */
  resumed(): void;
}

/** Never pauses: the evaluation runs to its end in one call (views, update pipelines, `let`). */
export const UNPACED: Pacer = { tick: () => false, resumed: () => {} };

/** Pauses once `sliceMs` has passed since the start or the last pause. */
export function timeSlices(sliceMs = SLICE_MS): Pacer {
  let since = performance.now();
  let count = 0;
  return {
    tick() {
      if (++count % CHECK_EVERY !== 0) return false;
      return performance.now() - since >= sliceMs;
    },
    resumed() {
      since = performance.now();
    },
  };
}

/** Runs a paced evaluation to its end in one call. */
export function runToEnd<T>(work: Paced<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs a paced evaluation, giving the event loop a turn (I/O included) at each of its pauses. */
export async function runPaced<T>(work: Paced<T>, pacer: Pacer): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
    pacer.resumed();
  }
}

/** Pulls every item of `iterator` (mingo's lazy sequences included), pausing when the pacer says so. */
export function* drain<T>(iterator: { next(): { value?: unknown; done?: boolean } }, pacer: Pacer): Paced<T[]> {
  const out: T[] = [];
  for (let step = iterator.next(); !step.done; step = iterator.next()) {
    out.push(step.value as T);
    if (pacer.tick()) yield;
  }
  return out;
}
