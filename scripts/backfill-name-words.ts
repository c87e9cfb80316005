// Fills `users.nameWords` for accounts stored before rider search (migrations-notes/name-words.md), with the
// service's own nameWords(), against MONGODB_URI (env, else .dev.vars). Safe to run again: it rewrites the same words.
import { MongoClient } from 'mongodb';
import type { UserDoc } from '../worker/accounts/documents';
import { nameWords } from '../worker/accounts/users/name-words';
import { databaseName } from '../worker/platform/db/database-name';
import { readDevVars } from './dev-config';

const uri = process.env.MONGODB_URI || readDevVars().MONGODB_URI;
if (!uri) {
  console.error('backfill-name-words: set MONGODB_URI');
  process.exit(2);
}
const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
try {
  const users = client.db(databaseName(uri, process.env.MONGODB_DB)).collection<UserDoc>('users');
  let filled = 0;
  for await (const user of users.find({ nameWords: { $exists: false } }, { projection: { name: 1 } })) {
    // Only while the name is still the one read: a rename meanwhile wrote its own words.
    const { modifiedCount } = await users.updateOne(
      { _id: user._id, name: user.name, nameWords: { $exists: false } },
      { $set: { nameWords: nameWords(user.name) } },
    );
    filled += modifiedCount;
  }
  console.log(`backfill-name-words: ${filled} accounts filled`);
} finally {
  await client.close();
}
