import { LOG_EVENTS, type LogEventFields, type LogEventName } from './log-events';
import { requestIdInScope } from './request-scope';

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
  /** `partial`: the job ran to its end but skipped or failed some of its items (counted below). */
  outcome: 'ok' | 'partial' | 'failed';
  durationMs: number;
  itemsSkipped?: number;
  itemsFailed?: number;
  error?: string;
}

export interface ErrorLine {
  kind: 'error';
  /** Where it happened, in the code's terms: `request`, `db-gateway`, `socket-shard`, … */
  where: string;
  error: string;
  requestId?: string;
}

export type LogLine = RequestLine | CronLine | ErrorLine;

/** Writes one line of a fixed kind, at the level its kind and outcome give it. */
export function log(line: LogLine): void {
  const level = levelOf(line);
  // A 5xx request line is `warn` for filtering, but stays on the console's log stream as every request line.
  write(line.kind === 'request' ? 'info' : level, JSON.stringify({ time: new Date().toISOString(), level, ...line }));
}

/** Where lines go: the runtime's console, which Workers Logs and `wrangler tail` collect. */
function write(level: 'info' | 'warn' | 'error', text: string): void {
  if (level === 'error') console.error(text);
  else if (level === 'warn') console.warn(text);
  else console.log(text);
}

function levelOf(line: LogLine): 'info' | 'warn' | 'error' {
  if (line.kind === 'error' || (line.kind === 'cron' && line.outcome === 'failed')) return 'error';
  if (line.kind === 'request' && line.status >= 500) return 'warn';
  if (line.kind === 'cron' && line.outcome === 'partial') return 'warn';
  return 'info';
}

const EMAIL = /[^\s"'<>@,;:()[\]\\]+@[^\s"'<>@,;:()[\]\\]+\.[A-Za-z]{2,}/g;
// A JWT (three base64url parts) or a long base64url run: session, refresh and web push tokens all look like one.
const TOKEN = /\b[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b|\b[A-Za-z0-9_-]{40,}\b/g;
// Expo's push tokens are short inside their brackets (percent-encoded in a URL), and Expo's error messages quote them.
const EXPO_TOKEN = /\bExpo(?:nent)?PushToken(?:\[[^\]]*\]|%5B.*?%5D)/gi;
// A URL quoted in an error: the query values and the voice session path that carry a token, whatever their shape.
const URL_TOKEN = /([?&](?:token|endpoint)=)[^&\s"'#]+/gi;
const SPEAK_PATH = /(\/speak\/)[^/\s"'?#]+/g;

/** Free text fit for a log line: addresses and token-shaped runs replaced, and cut to a readable length. */
export function redacted(text: string): string {
  return text
    .replace(EMAIL, '[email]')
    .replace(URL_TOKEN, '$1[token]')
    .replace(SPEAK_PATH, '$1[token]')
    .replace(EXPO_TOKEN, '[token]')
    .replace(TOKEN, '[token]')
    .slice(0, 500);
}

/** An error as one line's `error` field: its name and redacted message, with the top of its stack for a 500. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return redacted(String(err));
  const frames = err.stack?.split('\n').slice(1, 4).join(' | ').trim();
  return redacted(`${err.name}: ${err.message}${frames ? ` @ ${frames}` : ''}`);
}

/** Logs an error from outside a request (a Durable Object, a background task). */
export function logError(where: string, err: unknown, requestId = requestIdInScope()): void {
  log({ kind: 'error', where, error: describeError(err), ...(requestId ? { requestId } : {}) });
}

const FIXED_FIELDS = new Set(['time', 'level', 'kind', 'event', 'requestId']);

/**
 * One line for a named event of LOG_EVENTS (worker/platform/ops/log-events.ts), at its level, with the id of the
 * request in scope and exactly the typed fields given: a text is redacted, and no field can stand in for the fixed
 * ones.
 * @example logEvent('push.receipt.failed', { ticketId, code })
 */
export function logEvent<E extends LogEventName>(event: E, fields: LogEventFields[E]): void {
  const { level } = LOG_EVENTS[event];
  const requestId = requestIdInScope();
  const line: Record<string, unknown> = {
    time: new Date().toISOString(),
    level,
    kind: 'event',
    event,
    ...(requestId ? { requestId } : {}),
  };
  for (const [field, value] of Object.entries(fields)) {
    if (FIXED_FIELDS.has(field)) continue;
    line[field] = typeof value === 'string' ? redacted(value) : value;
  }
  write(level, JSON.stringify(line));
}
