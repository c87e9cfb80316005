/**
 * Real-time figures share the binding; their blob1 names the figure (`realtime.…`), which no route pattern starts
 * with, so the request queries of docs/operations.md leave them out with `blob1 NOT LIKE 'realtime.%'`.
 */
export const REALTIME_FIGURE_PREFIX = 'realtime.';
