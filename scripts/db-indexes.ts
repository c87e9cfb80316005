// Applies every declared index to the database the Worker uses at MONGODB_URI (env, else
// .dev.vars). Safe to run again: existing identical indexes are left alone.
import { MongoClient } from 'mongodb';
import { applyIndexes } from '../worker/data';
import { databaseName } from '../worker/platform/db/database-name';
import { readDevVars } from './dev-config';

const uri = process.env.MONGODB_URI || readDevVars().MONGODB_URI;
if (!uri) {
  console.error('db:indexes: set MONGODB_URI (e.g. MONGODB_URI=mongodb://127.0.0.1:27018/rider npm run db:indexes)');
  process.exit(2);
}
const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
try {
  const db = client.db(databaseName(uri, process.env.MONGODB_DB));
  const count = await applyIndexes(db);
  console.log(`db:indexes: ${count} indexes present on ${db.databaseName}`);
} finally {
  await client.close();
}
