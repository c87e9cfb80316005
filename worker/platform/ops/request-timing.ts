/**
 * What one request spent on the database, added to by the data path (worker/platform/db/connection.ts and
 * gateway-store.ts) and read by the request log, so no domain passes timings around.
 */
export interface RequestTiming {
  /** Time the driver reported for its commands (in gateway mode, as the gateway object measured it). */
  dbMs: number;
  /** Wall time of the Worker's calls to the gateway objects, the driver time inside them included. */
  gatewayMs: number;
  dbCalls: number;
}

export const newRequestTiming = (): RequestTiming => ({ dbMs: 0, gatewayMs: 0, dbCalls: 0 });

/** Milliseconds rounded to tenths: finer is noise in a log line. */
export const roundedMs = (ms: number): number => Math.round(ms * 10) / 10;
