import { describe, expect, it } from 'vitest';
import { seedDemoEvents } from '../../../scripts/seed-events';
import { applyIndexes } from '../../../worker/data';
import { useDevDatabase } from '../../support/dev-database';

const dev = useDevDatabase();

describe('the demo events (scripts/seed-events.ts)', () => {
  it('stores about 30 events around today, past and future, under the unique indexes; a second run adds none', async () => {
    const db = dev.client.db('seed_events');
    await applyIndexes(db);
    const now = new Date();
    const count = await seedDemoEvents(db, now);
    expect(count).toBeGreaterThanOrEqual(25);
    const events = db.collection('events');
    const first = await events.find().toArray();
    expect(first).toHaveLength(count);
    await seedDemoEvents(db, new Date(now.getTime() + 60_000));
    const second = await events.find().toArray();
    expect(second.map((event) => [event._id, event.slug, event.createdAt])).toEqual(
      first.map((event) => [event._id, event.slug, event.createdAt]),
    );
    const starts = first.flatMap((event) => (event.startAt instanceof Date ? [event.startAt.getTime()] : []));
    expect(starts.some((start) => start < now.getTime())).toBe(true);
    expect(starts.some((start) => start > now.getTime())).toBe(true);
    expect(first.some((event) => event.isOnline === true)).toBe(true);
    expect(first.some((event) => event.timeTba === true)).toBe(true);
    expect(first.some((event) => event.endAt instanceof Date)).toBe(true);
    expect(new Set(first.flatMap((event) => event.sports)).size).toBeGreaterThanOrEqual(4);
  });
});
