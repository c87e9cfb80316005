// `npm run db:doctor`: checks every collection of the database at MONGODB_URI (env, else .dev.vars) against the
// service's stored shapes (worker/data.ts STORED_SHAPES) and prints, per collection and field, how many documents
// have each kind of problem (counts and ids, never content). Dry run unless --fix, which repairs what is safe in
// place, in batches (--batch=500), resumable and idempotent. --collection=users,events limits it.
// Notes: migrations-notes/data-doctor.md.
import { MongoClient } from 'mongodb';
import { STORED_SHAPES } from '../worker/data';
import { databaseName } from '../worker/platform/db/database-name';
import { runDoctor } from './data-doctor';
import { formatDoctorReport } from './data-doctor-report';
import { readDevVars } from './dev-config';

const args = process.argv.slice(2);
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
const unknown = args.filter((arg) => !/^--(fix|batch=\d+|collection=[\w,]+)$/.test(arg));
if (unknown.length) {
  console.error(`db:doctor: unknown argument ${unknown.join(' ')} (use --fix, --batch=N, --collection=a,b)`);
  process.exit(2);
}
const uri = process.env.MONGODB_URI || readDevVars().MONGODB_URI;
if (!uri) {
  console.error('db:doctor: set MONGODB_URI (e.g. MONGODB_URI=mongodb://127.0.0.1:27018/rider npm run db:doctor)');
  process.exit(2);
}
const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
try {
  const db = client.db(databaseName(uri, process.env.MONGODB_DB));
  const report = await runDoctor(db, STORED_SHAPES, {
    fix: args.includes('--fix'),
    batchSize: Number(option('batch') ?? 500),
    ...(option('collection') ? { collections: option('collection')!.split(',') } : {}),
  });
  console.log(`db:doctor on ${db.databaseName}`);
  for (const line of formatDoctorReport(report)) console.log(line);
} finally {
  await client.close();
}
