import { requireSetting } from '../../platform/config';
import type { Env } from '../../platform/env';
import type { SettingName } from '../../platform/setting-error';
import type { NormalizedEvent, RejectedItem } from './event-record';
import { fetchSourceOne, SOURCE_ONE } from './source-one';
import { fetchSourceTwo, SOURCE_TWO } from './source-two';

export interface EventSource {
  name: string;
  /** The setting holding the upstream address (worker/platform/env.ts). */
  setting: SettingName;
  /** Reads the whole upstream listing, or throws (a ShapeError, an HTTP error). */
  fetch(url: string): Promise<{ events: NormalizedEvent[]; rejected: RejectedItem[] }>;
  why: string;
}

/**
 * The upstream event sources. When both list the same event, the more trusted listing's content
 * wins whatever order the runs happen in (worker/events/catalog/trust.ts: connector two's sourceTrust is
 * above connector one's default).
 */
export const EVENT_SOURCES: EventSource[] = [
  {
    name: SOURCE_ONE,
    setting: 'EVENT_SOURCE_ONE_URL',
    fetch: fetchSourceOne,
    why: 'a public JSON list with HTML cards: title, dates, venue, image; sport only from the month',
  },
  {
    name: SOURCE_TWO,
    setting: 'EVENT_SOURCE_TWO_URL',
    fetch: fetchSourceTwo,
    why: 'server-rendered page data: adds description, organizer, series, and what is inferred from them',
  },
];

/** Reads a source's listing from the address its setting names; an unset one throws MissingSettingError. */
export function readSource(env: Env, source: EventSource) {
  return source.fetch(requireSetting(env, source.setting));
}
