import { ObjectId } from 'mongodb';
import { LIMITS } from '../../../worker/platform/limits';
import type { LegacySet } from '../legacy-documents';

/** Who calls: a token, or none for the anonymous caller. */
export interface Caller {
  name: string;
  token?: string;
}

export interface PlannedCall {
  caller: Caller;
  method: string;
  /** The route as the OpenAPI document names it. */
  template: string;
  path: string;
  json?: unknown;
  /** The stored document the path names, when it names one. */
  about?: string;
}

type Parameter = { name: string; in: string; required?: boolean; schema?: { enum?: unknown[] } };
type Operation = { parameters?: Parameter[] };
export type OperationsDocument = { paths: Record<string, Record<string, Operation>> };

/** Which seeded collection fills a route's first path parameter, by the route's leading words. */
const PATH_SOURCES: [RegExp, string][] = [
  [/^\/api\/spots\/\{spotId\}/, 'spots'],
  [/^\/api\/tricklists\/\{listId\}/, 'tricklists'],
  [/^\/api\/spotlists\/\{listId\}/, 'spotlists'],
  [/^\/api\/trickipedia\/\{id\}/, 'trickipedia'],
  [/^\/api\/blog\/\{id\}/, 'blog'],
  [/^\/api\/conversations\/\{id\}/, 'conversations'],
  [/^\/api\/feed\/\{postId\}/, 'feed_posts'],
  [/^\/api\/users\/\{id\}/, 'users'],
  [/^\/api\/events\/\{(?:slugOrId|id)\}/, 'events'],
  [/^\/api\/event-subscriptions\/\{id\}/, 'eventSubscriptions'],
];

/** Routes that also take a slug where the id goes: each document is asked for by both. */
const SLUG_TOO = /^\/api\/(?:blog\/\{id\}|trickipedia\/\{id\}|events\/\{slugOrId\})$/;

/**
 * The one route per collection that shows a single document: called over every seeded document. The routes that
 * hang off one (a spot's reviews, an event's calendar entry) are called over the clean documents only: what they
 * list hangs off the clean ones, and the lists show every document's fields through the same views.
 */
const OVER_EVERY_DOCUMENT = new Set([
  '/api/spots/{spotId}',
  '/api/tricklists/{listId}',
  '/api/spotlists/{listId}',
  '/api/trickipedia/{id}',
  '/api/blog/{id}',
  '/api/conversations/{id}/messages',
  '/api/feed/{postId}',
  '/api/users/{id}/profile',
  '/api/events/{slugOrId}',
  '/api/event-subscriptions/{id}',
]);

/** Values for the parameters no seeded collection fills. */
const FIXED_VALUES: Record<string, string> = {
  platform: 'ios',
  key: 'legacy-experiment',
  q: 'legacy',
  bbox: '-180,-90,180,90',
  installationId: 'legacy-installation-1',
};

const valueFor = (parameter: Parameter) =>
  FIXED_VALUES[parameter.name] ?? String(parameter.schema?.enum?.[0] ?? new ObjectId().toHexString());

/** The GET operations of the served document, each with its required query filled. */
export function getOperations(document: OperationsDocument): { template: string; query: string }[] {
  return Object.entries(document.paths).flatMap(([template, operations]) => {
    const operation = operations.get;
    if (!operation) return [];
    const parameters = (operation.parameters ?? []).filter((p) => p.in === 'query');
    const filled: [string, string][] = parameters
      .filter((p) => p.required)
      .map((p): [string, string] => [p.name, valueFor(p)]);
    // The largest page a list serves: fewer pages to follow through the seeded documents.
    if (parameters.some((p) => p.name === 'limit')) filled.push(['limit', String(LIMITS.pageSizeMax)]);
    const query = new URLSearchParams(filled).toString();
    return [{ template, query }];
  });
}

/** Each way of naming a seeded document in a route's path: its id, and its slug where the route takes one. */
function pathValues(set: LegacySet, template: string): { value: string; about?: string; variant: boolean }[] {
  const source = PATH_SOURCES.find(([pattern]) => pattern.test(template))?.[1];
  if (!source) return [{ value: '', variant: false }];
  const entries = set.of(source).filter((entry) => OVER_EVERY_DOCUMENT.has(template) || !entry.label.includes(':'));
  return entries.flatMap((entry) => {
    const about = `${source} ${entry.label}`;
    // The clean documents and the one with extra fields; the others change one field each.
    const variant = entry.label.includes(':');
    const id = { value: String(entry.doc._id), about, variant };
    const slug = entry.doc.slug;
    const bySlug = SLUG_TOO.test(template) && !variant && typeof slug === 'string';
    return bySlug ? [id, { value: slug, about: `${about} (by slug)`, variant }] : [id];
  });
}

/** Fills a template: the first parameter with `first`, the others from FIXED_VALUES or a fresh id. */
function fill(template: string, first: string): string {
  let used = false;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!used && first) {
      used = true;
      return encodeURIComponent(first);
    }
    return encodeURIComponent(FIXED_VALUES[name] ?? new ObjectId().toHexString());
  });
}

/**
 * Every GET operation of the document over the seeded set, for each caller. A route with a path parameter is
 * called once per seeded document of its collection by the callers in `everyDocument`, and by the others over
 * the clean documents and the one with extra fields only: every kind of value is met, in a bounded time.
 */
export function plannedGets(
  document: OperationsDocument,
  set: LegacySet,
  callers: Caller[],
  everyDocument: string[],
): PlannedCall[] {
  const calls: PlannedCall[] = [];
  for (const { template, query } of getOperations(document)) {
    const values = pathValues(set, template);
    for (const caller of callers) {
      values.forEach(({ value, about, variant }) => {
        if (variant && !everyDocument.includes(caller.name)) return;
        const path = `${fill(template, value)}${query ? `?${query}` : ''}`;
        calls.push({ caller, method: 'GET', template, path, about });
      });
    }
  }
  return calls;
}

/** Runs `work` over `items` with at most `concurrency` at once, keeping the order of the results. */
export async function inBatches<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
