import type { Document } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventDedupeKey, eventSlug } from '../../../worker/events/catalog/identity';
import { ingestionTestbed } from '../../support/ingestion';
import { captureLogLines, eventLines } from '../../support/log-lines';
import { SOURCE_ONE_FACTS } from '../../support/stand-ins/event-source-one-fixture';
import { SOURCE_TWO_FACTS } from '../../support/stand-ins/event-source-two-fixture';

// Ingestion through the real Cron Trigger handler (worker/index.ts scheduled → worker/schedules.ts),
// against the stand-in sources serving the fixture listings.

const ONE_EVENTS = SOURCE_ONE_FACTS.items - SOURCE_ONE_FACTS.rejected - SOURCE_ONE_FACTS.repeats;
const DISTINCT_EVENTS = ONE_EVENTS + SOURCE_TWO_FACTS.items - SOURCE_TWO_FACTS.alsoInSourceOne;
// A sighting re-verifies the event: lastSeenAt and freshness move, nothing else (worker/events/ingestion/bulk-writer.ts).
const withoutLastSeen = (docs: Document[]) =>
  docs.map(({ lastSeenAt: _, freshness: { changedAt } = {}, ...rest }) => ({ ...rest, changedAt }));
const counts = (run: Document) => {
  const { source, status, fetched, inserted, updated, unchanged, duplicates, failed, error } = run;
  return { source, status, fetched, inserted, updated, unchanged, duplicates, failed, error };
};

afterEach(() => vi.restoreAllMocks());

describe('scheduled event ingestion', () => {
  it('stores every distinct event of both sources once, with its identity, dates at noon UTC and timestamps', async () => {
    const bed = ingestionTestbed('ingest-store');
    const lines = await captureLogLines(() => bed.runCron());
    const events = await bed.events();
    // The one unreadable item of source one is skipped, and named.
    expect(eventLines(lines, 'ingestion.item.skipped')).toEqual([
      expect.objectContaining({
        level: 'warn',
        source: 'source-one',
        sourceId: expect.any(String),
        reason: expect.any(String),
      }),
    ]);
    expect(events).toHaveLength(DISTINCT_EVENTS);
    expect((await bed.runs()).map(counts)).toEqual([
      {
        source: 'source-one',
        status: 'succeeded',
        fetched: 24,
        inserted: 22,
        updated: 0,
        unchanged: 0,
        duplicates: 1,
        failed: 1,
        error: null,
      },
      // The two listings source one also carries take source two's richer content (worker/events/ingestion/sources.ts).
      {
        source: 'source-two',
        status: 'succeeded',
        fetched: 22,
        inserted: 20,
        updated: 2,
        unchanged: 0,
        duplicates: 0,
        failed: 0,
        error: null,
      },
    ]);
    for (const event of events) {
      expect(event.dedupeKey).toBe(
        eventDedupeKey({ title: event.title, startAt: event.startAt, city: event.venue.city }),
      );
      expect(event.slug).toBe(eventSlug(event.title, event.dedupeKey));
      if (event.startAt) expect(event.startAt.toISOString()).toMatch(/T12:00:00\.000Z$/);
      expect(event.createdAt).toBeInstanceOf(Date);
      expect(event.updatedAt).toBeInstanceOf(Date);
      expect(event.lastSeenAt).toBeInstanceOf(Date);
    }
    const jam = events.find((event) => event.title === 'Rock & Roll Bowl Jam')!;
    expect(jam).toMatchObject({
      source: 'source-two',
      timeTba: true,
      venue: { city: 'Austin', region: 'TX', country: 'US' },
    });
    expect(events.filter((event) => event.title === 'Mini Ramp Mayhem')).toHaveLength(1);
    const tba = events.find((event) => event.title === 'Street League Tryouts')!;
    expect(tba).toMatchObject({ startAt: null, status: 'scheduled', sourceId: '48247' });
  });

  it('a second run over the same upstream data changes nothing but lastSeenAt and freshness (sourceRefs and raw records stay)', async () => {
    const bed = ingestionTestbed('ingest-repeat');
    await bed.runCron();
    const before = await bed.events();
    await bed.runCron();
    const after = await bed.events();
    expect(withoutLastSeen(after)).toEqual(withoutLastSeen(before));
    for (const [i, event] of after.entries())
      expect(event.lastSeenAt.getTime()).toBeGreaterThan(before[i]!.lastSeenAt.getTime());
    expect((await bed.runs()).slice(2).map(counts)).toEqual([
      {
        source: 'source-one',
        status: 'succeeded',
        fetched: 24,
        inserted: 0,
        updated: 0,
        unchanged: 22,
        duplicates: 1,
        failed: 1,
        error: null,
      },
      {
        source: 'source-two',
        status: 'succeeded',
        fetched: 22,
        inserted: 0,
        updated: 0,
        unchanged: 22,
        duplicates: 0,
        failed: 0,
        error: null,
      },
    ]);
  });

  it('a changed listing rewrites that event and its updatedAt, keeping createdAt and slug', async () => {
    const bed = ingestionTestbed('ingest-change');
    await bed.runCron();
    const stale = (await bed.events()).find((event) => event.title === 'Spring Slam');
    await bed.api.db((db) =>
      db
        .collection('events')
        .updateOne({ _id: stale!._id }, { $set: { title: 'Outdated', contentHash: 'older listing' } }),
    );
    await bed.runCron();
    const fresh = (await bed.events()).find((event) => event._id.equals(stale!._id))!;
    expect(fresh).toMatchObject({ title: stale!.title, slug: stale!.slug, createdAt: stale!.createdAt });
    expect(fresh.updatedAt.getTime()).toBeGreaterThan(stale!.updatedAt.getTime());
    expect((await bed.runs())[2]).toMatchObject({ updated: 1, unchanged: ONE_EVENTS - 1 });
  });

  it.each(['one', 'two'] as const)(
    'a shape-changed source %s fails loudly: an error naming the source and what is missing, a failed run, no write',
    async (which) => {
      const bed = ingestionTestbed(`ingest-shape-${which}`);
      await bed.runCron();
      const before = await bed.events();
      // The other source is down, so any write would be the shape-changed source's.
      await bed.sources(
        which === 'one' ? { one: 'shape-changed', two: 'down' } : { one: 'down', two: 'shape-changed' },
      );
      const lines = await captureLogLines(() => bed.runCron());
      const failed = (await bed.runs()).slice(2).find((run) => run.source === `source-${which}`)!;
      const missing =
        which === 'one' ? 'page 2 events[0]: the article.event-card element' : 'props.pageProps.events array';
      expect(failed).toMatchObject({ status: 'failed', fetched: 0, inserted: 0, updated: 0 });
      expect(failed.error).toContain(`source-${which}: unexpected upstream shape`);
      expect(failed.error).toContain(missing);
      expect(eventLines(lines, 'ingestion.source.failed')).toContainEqual(
        expect.objectContaining({
          level: 'error',
          source: `source-${which}`,
          error: expect.stringContaining(`source-${which}: unexpected upstream shape`),
        }),
      );
      expect(await bed.events()).toEqual(before);
    },
  );

  it('a shape-changed first run leaves the collection empty, although page 1 of source one was fine', async () => {
    const bed = ingestionTestbed('ingest-shape-empty');
    await bed.sources({ one: 'shape-changed', two: 'shape-changed' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await bed.runCron();
    expect(await bed.events()).toEqual([]);
    expect((await bed.runs()).map((run) => run.status)).toEqual(['failed', 'failed']);
  });

  it('one failing source does not stop the other', async () => {
    const bed = ingestionTestbed('ingest-isolation');
    await bed.sources({ one: 'down' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await bed.runCron();
    const [one, two] = await bed.runs();
    expect(one).toMatchObject({
      source: 'source-one',
      status: 'failed',
      error: expect.stringContaining('answered HTTP 503'),
    });
    expect(two).toMatchObject({ source: 'source-two', status: 'succeeded', inserted: SOURCE_TWO_FACTS.items });
    expect(await bed.events()).toHaveLength(SOURCE_TWO_FACTS.items);
  });

  it('zero events where the last successful run had many is a shape change; a source that never had any may be empty', async () => {
    const bed = ingestionTestbed('ingest-zero');
    await bed.sources({ two: 'empty' });
    await bed.runCron();
    expect((await bed.runs())[1]).toMatchObject({ source: 'source-two', status: 'succeeded', fetched: 0 });
    await bed.sources({ one: 'empty' });
    const before = await bed.events();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await bed.runCron();
    const zero = (await bed.runs())[2]!;
    expect(zero).toMatchObject({ source: 'source-one', status: 'failed' });
    expect(zero.error).toMatch(
      /source-one: unexpected upstream shape: no events, where the last successful run \(.+\) read 24/,
    );
    expect(await bed.events()).toEqual(before);
  });

  it('most items unreadable (every date in a new format) fails the run loudly and writes nothing', async () => {
    const bed = ingestionTestbed('ingest-reformatted');
    await bed.sources({ two: 'dates-reformatted' });
    const lines = await captureLogLines(() => bed.runCron());
    const two = (await bed.runs())[1]!;
    expect(two).toMatchObject({ source: 'source-two', status: 'failed', inserted: 0 });
    expect(two.error).toMatch(
      /^source-two: unexpected upstream shape: \d+ of \d+ items could not be read \(e\.g\. \d+: /,
    );
    expect(eventLines(lines, 'ingestion.source.failed')).toEqual([
      expect.objectContaining({ source: 'source-two', error: expect.stringContaining('items could not be read') }),
    ]);
    expect(await bed.events()).toHaveLength(ONE_EVENTS);
  });

  it('names the missing setting when a source is not configured, and still runs the other', async () => {
    const bed = ingestionTestbed('ingest-unset');
    bed.api.env.EVENT_SOURCE_ONE_URL = '';
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await bed.runCron();
    const [one, two] = await bed.runs();
    expect(one!.error).toContain('EVENT_SOURCE_ONE_URL is not set');
    expect(two!.status).toBe('succeeded');
  });

  it('moves an event to completed once its last day is over, and keeps running and undated events scheduled', async () => {
    const bed = ingestionTestbed('ingest-status');
    await bed.runCron();
    const status = async (title: string) => (await bed.events()).find((event) => event.title === title)?.status;
    expect(await status('Spring Slam')).toBe('completed');
    expect(await status('Summer Street League')).toBe('completed');
    expect(await status('Skate Camp Week')).toBe('scheduled');
    expect(await status('Street League Tryouts')).toBe('scheduled');
    expect((await bed.events()).filter((event) => event.status === 'completed')).toHaveLength(7);
    // Time passes: the event's day is now long over (its listing, and so its hash, unchanged).
    const lastWeek = new Date(Date.now() - 7 * 86_400_000);
    await bed.api.db((db) =>
      db.collection('events').updateOne({ title: 'Mini Ramp Mayhem' }, { $set: { startAt: lastWeek } }),
    );
    await bed.runCron();
    expect(await status('Mini Ramp Mayhem')).toBe('completed');
  });
});
