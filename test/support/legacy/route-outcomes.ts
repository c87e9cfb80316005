import { type ApiDocument, contractViolation } from '../response-contract';
import { type Api, callWorker } from '../worker-api';
import type { PlannedCall } from './route-calls';

export interface CallOutcome {
  call: PlannedCall;
  status: number;
  requestId: string | null;
  /** What breaks the API description in the answer, when something does. */
  violation: string | null;
  /** A page's body, for a failure message. */
  excerpt: string;
  /** Every 24-hex id a list page (a GET without a path parameter) holds: which documents it shows. */
  ids?: Set<string>;
}

/** How many further pages a list is followed through by its `nextCursor`: enough to pass every seeded document. */
const MAX_PAGES = 30;

async function send(api: Api, call: PlannedCall, path: string, doc: ApiDocument): Promise<[CallOutcome, unknown]> {
  const headers: Record<string, string> = call.json === undefined ? {} : { 'content-type': 'application/json' };
  // Both token headers: each check reads its own and ignores the other.
  if (call.caller.token)
    Object.assign(headers, { 'x-auth-token': call.caller.token, authorization: `Bearer ${call.caller.token}` });
  const request = new Request(`http://rider.test${path}`, {
    method: call.method,
    headers,
    ...(call.json === undefined ? {} : { body: JSON.stringify(call.json) }),
  });
  const res = await callWorker(request, api.env);
  const violation = await contractViolation(doc, call.method, request.url, res.clone());
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const outcome: CallOutcome = {
    call: { ...call, path },
    status: res.status,
    requestId: res.headers.get('x-request-id'),
    violation,
    excerpt: text.slice(0, 200),
  };
  if (call.method === 'GET' && !call.template.includes('{')) outcome.ids = new Set(text.match(/[0-9a-f]{24}/g));
  return [outcome, body];
}

/**
 * Makes one planned call (a GET list is followed page by page while it answers a `nextCursor`) and answers
 * each page's outcome. The API description is checked but never thrown on, so one sweep reports everything.
 */
export async function makeCall(api: Api, call: PlannedCall, doc: ApiDocument): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = [];
  let path = call.path;
  for (let page = 0; page <= MAX_PAGES; page++) {
    const [outcome, body] = await send(api, call, path, doc);
    outcomes.push(outcome);
    const cursor = (body as { nextCursor?: unknown } | undefined)?.nextCursor;
    if (call.method !== 'GET' || outcome.status !== 200 || typeof cursor !== 'string' || !cursor) break;
    const url = new URL(path, 'http://rider.test');
    url.searchParams.set('cursor', cursor);
    path = `${url.pathname}${url.search}`;
  }
  return outcomes;
}

/** The error lines (worker/platform/http/on-error.ts) of the log, by request id: the cause of each 5xx. */
export function errorsByRequest(lines: string[]): Map<string, string> {
  const errors = new Map<string, string>();
  for (const line of lines) {
    try {
      const parsed = JSON.parse(line);
      if (parsed?.kind === 'error' && typeof parsed.requestId === 'string')
        errors.set(parsed.requestId, String(parsed.error));
    } catch {
      // not a structured line
    }
  }
  return errors;
}

/**
 * One message listing every 5xx, grouped by route: how many, which callers, the stored documents behind them
 * and the logged cause (error and first frames), so one failing run names every route and where it breaks.
 */
export function serverErrorReport(outcomes: CallOutcome[], errors: Map<string, string>): string {
  const failing = outcomes.filter((outcome) => outcome.status >= 500);
  const byRoute = new Map<string, CallOutcome[]>();
  for (const outcome of failing) {
    const key = `${outcome.call.method} ${outcome.call.template}`;
    byRoute.set(key, [...(byRoute.get(key) ?? []), outcome]);
  }
  const sections = [...byRoute].map(([route, list]) => {
    const callers = [...new Set(list.map((o) => o.call.caller.name))].join(', ');
    const abouts = [...new Set(list.map((o) => o.call.about ?? o.call.path.slice(0, 120)))].slice(0, 8);
    const causes = [...new Set(list.map((o) => (o.requestId && errors.get(o.requestId)) || o.excerpt))].slice(0, 3);
    return [
      `${route}: ${list.length} × ${[...new Set(list.map((o) => o.status))].join('/')} (${callers})`,
      ...abouts.map((about) => `    over ${about}`),
      ...causes.map((cause) => `    cause ${cause.slice(0, 400)}`),
    ].join('\n');
  });
  return `${byRoute.size} routes answered a 5xx in ${failing.length} of ${outcomes.length} answers:\n${sections.join('\n')}`;
}

/** Every answer that breaks the API description, one line per route and problem. */
export function contractReport(outcomes: CallOutcome[]): string {
  const lines = new Map<string, string>();
  for (const outcome of outcomes) {
    if (!outcome.violation || outcome.status >= 500) continue;
    const first = outcome.violation.split('\n')[0]!.slice(0, 300);
    if (!lines.has(first))
      lines.set(first, `${first}\n    over ${outcome.call.about ?? outcome.call.path.slice(0, 120)}`);
  }
  return `${lines.size} answers break the API description:\n${[...lines.values()].join('\n')}`;
}
