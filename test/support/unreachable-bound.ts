/**
 * How long a request may take to answer 503 while the database is unreachable, in tests. The clients give up server
 * selection after 1.5 s (worker/platform/db/connection.ts, durable-objects/db-gateway.ts) where the driver's default
 * waits 30 s: a bound far from both fails when that setting is lost, and not when a loaded 2-core machine adds a few
 * hundred milliseconds to the 1.5 s (a 2 s bound failed at 2,021 and 2,174 ms that way).
 */
export const UNREACHABLE_ANSWER_MS = 5000;
