// The units an experiment's results are computed over, seeded straight into the database for bench/experiments.ts
// (through the Worker) and bench/devdb.ts (the pipeline on the dev database alone), so both time the same data.
import { type Db, ObjectId } from 'mongodb';

const DAY = 24 * 60 * 60 * 1000;
const BATCH = 5_000;

/**
 * `units` exposures of `bench_results` over the two weeks before `now`, half riders and half installations, each
 * with one action: a third inside the unit's conversion window, the rest before its exposure or after the window.
 */
export async function seedExperimentUnits(db: Db, units: number, now: number): Promise<void> {
  const riderUnits = Math.floor(units / 2);
  for (let done = 0; done < units; done += BATCH) {
    const users: Record<string, unknown>[] = [];
    const exposures: Record<string, unknown>[] = [];
    const events: Record<string, unknown>[] = [];
    for (let i = done; i < Math.min(units, done + BATCH); i++) {
      const first = new Date(now - 21 * DAY + Math.random() * 14 * DAY);
      const userId = i < riderUnits ? new ObjectId() : null;
      const installationId = userId ? null : `bench-unit-${i}`;
      if (userId)
        users.push({
          _id: userId,
          name: `Unit ${i}`,
          email: `unit-${i}@bench.test`,
          role: null,
          createdAt: first,
          updatedAt: first,
        });
      exposures.push({
        _id: new ObjectId(),
        experimentKey: 'bench_results',
        userId,
        installationId,
        variant: Math.random() < 0.5 ? 'control' : 'treatment',
        firstExposedAt: first,
        createdAt: first,
        updatedAt: first,
      });
      const offset =
        Math.random() < 0.35 ? Math.random() * 6 * DAY : Math.random() < 0.5 ? -Math.random() * 3 * DAY : 8 * DAY;
      const at = new Date(first.getTime() + offset);
      events.push({
        _id: new ObjectId(),
        eventId: crypto.randomUUID(),
        name: userId ? 'trick_added' : 'spot_viewed',
        occurredAt: at,
        receivedAt: at,
        userId,
        anonymousId: installationId,
        platform: userId ? 'server' : 'ios',
        schemaVersion: 1,
        properties: {},
      });
    }
    if (users.length) await db.collection('users').insertMany(users);
    await db.collection('experiment_exposures').insertMany(exposures);
    await db.collection('analytics_events').insertMany(events);
  }
}
