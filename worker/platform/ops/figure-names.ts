/**
 * Real-time figures share the binding; their blob1 names the figure (`realtime.…`), which no route pattern starts
 * with, so the request queries of docs/operations.md leave them out with `blob1 NOT LIKE 'realtime.%'`.
 */
export const REALTIME_FIGURE_PREFIX = 'realtime.';

/** The moderation queue's figures (`moderation.…`) share it the same way: `blob1 NOT LIKE 'moderation.%'`. */
export const MODERATION_FIGURE_PREFIX = 'moderation.';

/** Whether a point's blob1 names a figure rather than a request's route pattern. */
export const isFigurePoint = (blob1: string): boolean =>
  blob1.startsWith(REALTIME_FIGURE_PREFIX) || blob1.startsWith(MODERATION_FIGURE_PREFIX);
