/**
 * An upstream response without the structure the event sources spec fixes
 * (/work/shared/spec/event-sources.md): the run for that source fails and writes nothing.
 */
export class ShapeError extends Error {
  constructor(
    readonly source: string,
    readonly missing: string,
  ) {
    super(`${source}: unexpected upstream shape: ${missing}`);
    this.name = 'ShapeError';
  }
}

/** A plain object, as JSON parsing gives one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
