import type { IncomingMessage, ServerResponse } from 'node:http';
import { fixtureBase } from './event-fixture-dates';
import { generatedCards, SOURCE_ONE_CARDS, sourceOnePage, sourceOneShapeChangedPage } from './event-source-one-fixture';
import {
  generatedItems,
  SOURCE_TWO_ITEMS,
  sourceTwoPage,
  sourceTwoReformattedDatesPage,
  sourceTwoShapeChangedPage,
} from './event-source-two-fixture';

/**
 * What a source answers: the fixture listing, the listing after a shape change, (source two) the listing
 * with every date in a new format, no events, an outage, or `count` generated events.
 */
export type Scenario = 'fixture' | 'shape-changed' | 'dates-reformatted' | 'empty' | 'down' | { generate: number };

/**
 * The two upstream event sources (the event sources spec), one pair per name, so test files
 * running in parallel never see each other's switches:
 * - `GET /event-sources/<name>/one?page=N`: source one's JSON pages;
 * - `GET /event-sources/<name>/two`: source two's HTML page;
 * - `PUT /event-sources/<name>` with `{one?: Scenario, two?: Scenario}` switches what they answer.
 */
export function createEventSourcesHandler() {
  const scenarios = new Map<string, { one: Scenario; two: Scenario }>();
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const match = /^\/event-sources\/([\w.-]+)(?:\/(one|two))?$/.exec(path);
    if (!match) return false;
    const [, name, source] = match as unknown as [string, string, 'one' | 'two' | undefined];
    const current = scenarios.get(name) ?? { one: 'fixture', two: 'fixture' };
    if (req.method === 'PUT' && !source) {
      let body = '';
      for await (const chunk of req) body += chunk;
      scenarios.set(name, { ...current, ...JSON.parse(body) });
      res.writeHead(204).end();
      return true;
    }
    if (!source) return false;
    const scenario = current[source];
    if (scenario === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream maintenance');
      return true;
    }
    const base = fixtureBase();
    if (source === 'one') {
      const page = Number(new URL(req.url ?? '/', 'http://stand-in').searchParams.get('page') ?? '1');
      const body =
        scenario === 'shape-changed'
          ? sourceOneShapeChangedPage(base, page)
          : typeof scenario === 'object'
            ? sourceOnePage(base, page, generatedCards(scenario.generate), 100)
            : sourceOnePage(base, page, scenario === 'empty' ? [] : SOURCE_ONE_CARDS);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return true;
    }
    const html =
      scenario === 'shape-changed'
        ? sourceTwoShapeChangedPage(base)
        : scenario === 'dates-reformatted'
          ? sourceTwoReformattedDatesPage(base)
          : sourceTwoPage(
              base,
              typeof scenario === 'object'
                ? generatedItems(scenario.generate)
                : scenario === 'empty'
                  ? []
                  : SOURCE_TWO_ITEMS,
            );
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    return true;
  };
}
