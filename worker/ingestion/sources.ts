import type { Env } from '../env';
import type { NormalizedEvent, RejectedItem } from './event-record';
import { fetchSourceOne, SOURCE_ONE } from './source-one';
import { fetchSourceTwo, SOURCE_TWO } from './source-two';

export interface EventSource {
  name: string;
  /** Reads the whole upstream listing, or throws (a ShapeError, an HTTP error, a missing setting). */
  read(env: Env): Promise<{ events: NormalizedEvent[]; rejected: RejectedItem[] }>;
  why: string;
}

/**
 * The upstream event sources, lowest rank first: when both list the same event (one dedupe
 * key), the later source's content wins, whatever order the runs happen in.
 */
export const EVENT_SOURCES: EventSource[] = [
  {
    name: SOURCE_ONE,
    read: fetchSourceOne,
    why: 'a public JSON list with HTML cards: title, dates, venue, image; sport only from the month',
  },
  {
    name: SOURCE_TWO,
    read: fetchSourceTwo,
    why: 'server-rendered page data: adds description, organizer, series, and what is inferred from them',
  },
];

/** The sources whose content a listing from `source` must not overwrite. */
export function sourcesOutranking(source: string): string[] {
  const rank = EVENT_SOURCES.findIndex((candidate) => candidate.name === source);
  return EVENT_SOURCES.slice(rank + 1).map((candidate) => candidate.name);
}
