// `npm run migrate:events`: moves stored Live events to the target shape (worker/events/catalog/migration.ts)
// on the database at MONGODB_URI (env, else .dev.vars). Resumable and idempotent: stop it any
// time and run it again. BATCH sets the batch size (default 500). Notes: migrations-notes/events-target-model.md.
import { MongoClient } from 'mongodb';
import { applyIndexes } from '../worker/data';
import { migrateEvents } from '../worker/events/catalog/migration';
import { databaseName } from '../worker/platform/db/database-name';
import { readDevVars } from './dev-config';

const uri = process.env.MONGODB_URI || readDevVars().MONGODB_URI;
if (!uri) {
  console.error(
    'migrate:events: set MONGODB_URI (e.g. MONGODB_URI=mongodb://127.0.0.1:27018/rider npm run migrate:events)',
  );
  process.exit(2);
}
const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
try {
  const db = client.db(databaseName(uri, process.env.MONGODB_DB));
  // The 2dsphere index on venue.location and the new collections' indexes first (as npm run db:indexes).
  await applyIndexes(db);
  const started = Date.now();
  const report = await migrateEvents(db, { batchSize: Number(process.env.BATCH ?? 500) });
  console.log(`migrate:events: ${JSON.stringify(report)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await client.close();
}
