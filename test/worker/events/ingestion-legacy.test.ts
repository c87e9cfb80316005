import type { Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ingestionTestbed } from '../../support/ingestion';
import { captureLogLines, eventLines } from '../../support/log-lines';

// Ingestion over stored events older code left odd: one it cannot read is skipped and counted, never the run.

const cronLines = (lines: string[]) =>
  lines.flatMap((line) => {
    const parsed = JSON.parse(line.startsWith('{') ? line : '{}');
    return parsed.kind === 'cron' ? [parsed] : [];
  });

describe('ingestion over legacy stored events', () => {
  it('a stored event with a number for its city or title never stops a source', async () => {
    const bed = ingestionTestbed('ingest-legacy-city');
    await bed.runCron();
    const [stored] = await bed.events();
    await bed.api.db((db) =>
      db.collection('events').insertOne({
        title: 12345,
        slug: 'legacy-number-city',
        dedupeKey: 'legacy-number-city',
        startAt: stored!.startAt,
        venue: { city: 42 },
        source: 'legacy',
      }),
    );
    await bed.runCron();
    const runs = (await bed.runs()).slice(-2);
    expect(runs.map((run: Document) => [run.source, run.status, run.error, run.skipped])).toEqual([
      ['source-one', 'succeeded', null, 0],
      ['source-two', 'succeeded', null, 0],
    ]);
  });

  it('skips and counts the listing whose stored event cannot be read, and the cron line says so', async () => {
    const bed = ingestionTestbed('ingest-legacy-unreadable');
    await bed.runCron();
    const [stored] = await bed.events();
    // An _id that is no id: nothing could link to this event, so ingestion leaves its listing alone.
    await bed.api.db(async (db) => {
      await db.collection('events').deleteOne({ _id: stored!._id });
      await db.collection<Document>('events').insertOne({ ...stored!, _id: 777 as never });
    });
    const lines = await captureLogLines(() => bed.runCron());
    const runs = (await bed.runs()).slice(-2);
    expect(runs.map((run: Document) => run.status)).toEqual(['succeeded', 'succeeded']);
    expect(await bed.api.db((db) => db.collection('events').findOne({ _id: 777 as never }))).toMatchObject({
      lastSeenAt: stored!.lastSeenAt,
    });
    // Both sources may list the event; each listing of it is left alone and counted by its source.
    const skips = eventLines(lines, 'ingestion.event.skipped');
    expect(skips.length).toBeGreaterThan(0);
    for (const skip of skips) expect(skip).toMatchObject({ level: 'warn', dedupeKey: stored!.dedupeKey });
    const skipped = runs.reduce((sum: number, run: Document) => sum + run.skipped, 0);
    expect(skipped).toBe(skips.length);
    const totalFailed = runs.reduce((sum: number, run: Document) => sum + run.failed, 0);
    expect(cronLines(lines)).toEqual([
      expect.objectContaining({
        job: 'event ingestion',
        outcome: 'partial',
        level: 'warn',
        itemsSkipped: skipped,
        itemsFailed: totalFailed,
      }),
    ]);
  });
});
