// The upstream item each normalized event was read from (kept beside it, not in it, so the
// connectors' normalized shape stays what test/node/event-source-*.test.ts compare). Ingestion
// stores it in eventSourceRecords (worker/events/ingestion/source-records.ts).

const RAW = new WeakMap<object, unknown>();

export function rememberRaw<T extends object>(event: T, raw: unknown): T {
  RAW.set(event, raw);
  return event;
}

/** The upstream item, or the normalized event itself when a connector kept none. */
export const rawOf = (event: object): unknown => (RAW.has(event) ? RAW.get(event) : event);
