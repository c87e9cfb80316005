/**
 * The service's one logger: every line is one JSON object of known fields, so Workers Logs can filter on them
 * and nothing the logger is not given a field for (bodies, headers, tokens) can reach it. Free text (an error's
 * message) passes through `redacted()` first, because driver errors quote the values they refused.
 */

/** A request as the request log middleware saw it (worker/platform/middleware/request-log.ts). */
export interface RequestLine {
  kind: 'request';
  requestId: string;
  method: string;
  /** The matched route pattern (`/api/feed/:postId`), never the raw path, which can carry ids and query texts. */
  route: string;
  status: number;
  durationMs: number;
  riderId?: string;
  /** Time inside the database driver, and waiting on the gateway objects that hold it (docs/operations.md). */
  dbMs: number;
  gatewayMs: number;
  dbCalls: number;
}

export interface CronLine {
  kind: 'cron';
  cron: string;
  job: string;
  outcome: 'ok' | 'failed';
  durationMs: number;
  error?: string;
}

export interface ErrorLine {
  kind: 'error';
  /** Where it happened, in the code's terms: `request`, `db-gateway`, `socket-shard`, … */
  where: string;
  error: string;
  requestId?: string;
}

export interface WarningLine {
  kind: 'warning';
  where: string;
  message: string;
}

export type LogLine = RequestLine | CronLine | ErrorLine | WarningLine;

/** Where lines go: the runtime's console, which Workers Logs and `wrangler tail` collect. */
export function log(line: LogLine): void {
  const text = JSON.stringify({ time: new Date().toISOString(), level: levelOf(line), ...line });
  if (line.kind === 'error' || (line.kind === 'cron' && line.outcome === 'failed')) console.error(text);
  else if (line.kind === 'warning') console.warn(text);
  else console.log(text);
}

function levelOf(line: LogLine): 'info' | 'warn' | 'error' {
  if (line.kind === 'error' || (line.kind === 'cron' && line.outcome === 'failed')) return 'error';
  if (line.kind === 'warning' || (line.kind === 'request' && line.status >= 500)) return 'warn';
  return 'info';
}

const EMAIL = /[^\s"'<>@,;:()[\]\\]+@[^\s"'<>@,;:()[\]\\]+\.[A-Za-z]{2,}/g;
// A JWT (three base64url parts) or a long base64url run: session, refresh and push tokens all look like one.
const TOKEN = /\b[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b|\b[A-Za-z0-9_-]{40,}\b/g;

/** Free text fit for a log line: addresses and token-shaped runs replaced, and cut to a readable length. */
export function redacted(text: string): string {
  return text.replace(EMAIL, '[email]').replace(TOKEN, '[token]').slice(0, 500);
}

/** An error as one line's `error` field: its name and redacted message, with the top of its stack for a 500. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return redacted(String(err));
  const frames = err.stack?.split('\n').slice(1, 4).join(' | ').trim();
  return redacted(`${err.name}: ${err.message}${frames ? ` @ ${frames}` : ''}`);
}

/** Logs an error from outside a request (a Durable Object, a background task). */
export function logError(where: string, err: unknown, requestId?: string): void {
  log({ kind: 'error', where, error: describeError(err), ...(requestId ? { requestId } : {}) });
}
