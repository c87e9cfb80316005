// Command monitoring for the unified format's observeEvents/expectEvents (source/unified-test-format).
import type { MongoClient } from 'mongodb';
import { assertMatches, type MatchContext, MatchError } from './unified-match.js';

type Doc = Record<string, unknown>;

interface Observed {
  type: string;
  event: { command?: Doc; reply?: Doc; commandName: string; databaseName: string };
}

const LISTENED = ['commandStartedEvent', 'commandSucceededEvent', 'commandFailedEvent'];
/** The driver's names for the spec's event types. */
const DRIVER_EVENT: Record<string, string> = {
  commandStartedEvent: 'commandStarted',
  commandSucceededEvent: 'commandSucceeded',
  commandFailedEvent: 'commandFailed',
};
/** Sensitive or handshake commands, never asserted by the spec's tests. */
const IGNORED = new Set(['hello', 'ismaster', 'isMaster', 'saslStart', 'saslContinue', 'authenticate', 'getnonce']);

export const observedEvents = new Map<string, Observed[]>();

/** Records the event types a client entity asks to observe. */
export function observe(id: string, client: MongoClient, spec: Doc): void {
  const wanted = (spec.observeEvents as string[] | undefined) ?? [];
  const ignored = new Set((spec.ignoreCommandMonitoringEvents as string[] | undefined) ?? []);
  const events: Observed[] = [];
  observedEvents.set(id, events);
  for (const type of LISTENED) {
    if (!wanted.includes(type)) continue;
    client.on(DRIVER_EVENT[type] as 'commandStarted', (event) => {
      if (IGNORED.has(event.commandName) || ignored.has(event.commandName)) return;
      events.push({ type, event: event as unknown as Observed['event'] });
    });
  }
}

export function monitoringOptions(spec: Doc): Doc {
  return Array.isArray(spec.observeEvents) ? { monitorCommands: true } : {};
}

/** Compares observed command events with a test's expectEvents. */
export function checkEvents(expected: Doc[] | undefined, ctx: MatchContext): void {
  for (const forClient of expected ?? []) {
    if (forClient.eventType !== undefined && forClient.eventType !== 'command') continue;
    const actual = observedEvents.get(String(forClient.client)) ?? [];
    const want = forClient.events as Doc[];
    const tooFew = actual.length < want.length;
    if (tooFew || (forClient.ignoreExtraEvents !== true && actual.length !== want.length)) {
      const names = actual.map((e) => `${e.type}:${e.event.commandName}`).join(', ');
      throw new MatchError(`expected ${want.length} events, observed ${actual.length} (${names})`);
    }
    for (const [i, w] of want.entries()) {
      const [type, fields] = Object.entries(w)[0] as [string, Doc];
      const got = actual[i]!;
      if (got.type !== type) throw new MatchError(`event ${i}: expected ${type}, got ${got.type}`);
      for (const [field, value] of Object.entries(fields)) {
        if (field === 'hasServiceId' || field === 'hasServerConnectionId') continue;
        const observedValue = (got.event as unknown as Doc)[field];
        try {
          assertMatches(value, observedValue, ctx, true, field);
        } catch (err) {
          throw new MatchError(`event ${i} (${got.event.commandName}): ${(err as Error).message}`);
        }
      }
    }
  }
}
