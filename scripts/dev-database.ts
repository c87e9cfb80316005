// Readies a database for the local stack: indexes, demo data on first use, and the demo
// accounts' passwords, printed only where they still work.
import bcrypt from 'bcryptjs';
import type { Db } from 'mongodb';
import { applyIndexes } from '../worker/data';
import { readBook, saveCredentials } from './dev-credentials';
import { seedDemoData } from './seed';
import { seedDemoEvents } from './seed-events';

/** Returns the lines to print. `key` says whose passwords these are (scripts/dev-credentials.ts). */
export async function prepareDatabase(db: Db, credentialsFile: string, key: string): Promise<string[]> {
  const lines = [`${await applyIndexes(db)} indexes applied to ${db.databaseName}`];
  const seeded = await seedDemoData(db);
  if (seeded) {
    saveCredentials(credentialsFile, key, seeded);
    lines.push('seeded demo data');
  }
  // Apart from the users check above, so a database made before events existed gets them too.
  if (!(await db.collection('events').countDocuments({}, { limit: 1 }))) {
    lines.push(`seeded ${await seedDemoEvents(db)} demo events`);
  }
  const credentials = readBook(credentialsFile)[key];
  for (const [role, account] of Object.entries(credentials ?? {})) {
    const user = await db.collection<{ password?: string }>('users').findOne({ email: account.email });
    // A file can outlive its data (a reset, a changed password): print only what signs in.
    const works = typeof user?.password === 'string' && (await bcrypt.compare(account.password, user.password));
    lines.push(
      works
        ? `${role}: ${account.email} / ${account.password}`
        : `${role}: ${account.email} (the recorded password no longer matches)`,
    );
  }
  if (!credentials) lines.push(`demo passwords for ${db.databaseName} are not on record in ${credentialsFile}`);
  return lines;
}
