/**
 * One event ingestion run of 2,000 upstream events (1,000 per source, from the stand-in
 * sources) against the dev database: seconds and database round trips, for a first run
 * (every event new) and a repeat run (every event unchanged). The ingestion module runs in
 * Node here, through the same driver calls the Worker makes; round trips are the driver's
 * commands (command monitoring), each one request and one reply on the wire.
 * Run: npx tsx bench/ingestion.ts   (EVENTS_PER_SOURCE overrides)
 */
import { MongoClient } from 'mongodb';
import { startDevDb } from '../devdb/src/server.js';
import { startStandIns } from '../test/support/stand-ins/server.js';
import { applyIndexes } from '../worker/data.js';
import { runIngestion } from '../worker/events/ingestion/runner.js';
import { createStore } from '../worker/platform/db/store.js';
import type { Env } from '../worker/platform/env.js';

const EVENTS_PER_SOURCE = Number(process.env.EVENTS_PER_SOURCE ?? 1000);

async function main(): Promise<void> {
  const devdb = await startDevDb({ port: 0, quiet: true });
  const standIns = await startStandIns();
  const client = new MongoClient(devdb.uri, { monitorCommands: true });
  const commands = new Map<string, number>();
  client.on('commandStarted', (event) => commands.set(event.commandName, (commands.get(event.commandName) ?? 0) + 1));
  try {
    const db = client.db('bench_ingestion');
    await applyIndexes(db);
    const sources = `${standIns.url}/event-sources/bench`;
    const scenario = { generate: EVENTS_PER_SOURCE };
    await fetch(sources, { method: 'PUT', body: JSON.stringify({ one: scenario, two: scenario }) });
    const env = { EVENT_SOURCE_ONE_URL: `${sources}/one`, EVENT_SOURCE_TWO_URL: `${sources}/two` } as Env;
    const store = createStore(() => db);
    for (const label of ['first run (all new)', 'repeat run (all unchanged)']) {
      commands.clear();
      const start = performance.now();
      const runs = await runIngestion(store, env, 'admin');
      const seconds = (performance.now() - start) / 1000;
      const trips = [...commands.values()].reduce((sum, n) => sum + n, 0);
      const detail = [...commands].map(([name, n]) => `${name} ${n}`).join(', ');
      console.log(`${label}: ${seconds.toFixed(2)} s, ${trips} database round trips (${detail})`);
      for (const run of runs) {
        const { source, status, fetched, inserted, updated, unchanged, durationMs } = run;
        console.log(
          `  ${source}: ${status}, fetched ${fetched}, inserted ${inserted}, updated ${updated}, unchanged ${unchanged}, ${durationMs} ms`,
        );
      }
    }
    console.log(`events stored: ${await db.collection('events').countDocuments()}`);
  } finally {
    await client.close();
    await standIns.close();
    await devdb.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
