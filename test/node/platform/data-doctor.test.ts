import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Db, Decimal128, type Document, ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { nameWords } from '../../../worker/accounts/users/name-words';
import { useDevDatabase } from '../../support/dev-database';

// `npm run db:doctor` as an operator runs it, against a messy database in a dev server of this file's own.

const run = promisify(execFile);
const dev = useDevDatabase();
const DB = 'doctor';

async function doctor(...args: string[]): Promise<string[]> {
  // The dev server's URI names no database: MONGODB_DB does (worker/platform/db/database-name.ts).
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/db-doctor.ts', ...args], {
    env: { ...process.env, MONGODB_URI: dev.uri, MONGODB_DB: DB },
  });
  return stdout.trim().split('\n');
}

const ids = {
  spaced: new ObjectId(),
  upper: new ObjectId(),
  lower: new ObjectId(),
  stale: new ObjectId(),
  clean: new ObjectId(),
  rider: new ObjectId(),
  list: new ObjectId(),
  tricks: [new ObjectId(), new ObjectId(), new ObjectId()],
  spot: new ObjectId(),
  stay: new ObjectId(),
  event: new ObjectId(),
  save: new ObjectId(),
  post: new ObjectId(),
  textEvent: new ObjectId(),
};
const hex = (id: ObjectId) => id.toHexString();

async function seedMess(db: Db): Promise<void> {
  const at = new Date('2021-06-01T00:00:00Z');
  await db.collection('users').insertMany([
    { _id: ids.spaced, name: 'Spaced Rider', email: '  Spaced@Example.COM ', createdAt: '2020-01-02T03:04:05Z' },
    { _id: ids.upper, name: 'Upper', email: 'Twin@Example.com', nameWords: ['upper'], createdAt: at },
    { _id: ids.lower, name: 'Lower', email: 'twin@example.com ', nameWords: ['lower'], createdAt: at },
    { _id: ids.stale, name: 'Zoë Park', email: 'zoe@example.com', nameWords: ['old'], createdAt: at },
    { _id: ids.clean, name: 'Clean', email: 'clean@example.com', nameWords: ['clean'], createdAt: at, updatedAt: at },
  ]);
  await db.collection('tricks').insertMany(
    ids.tricks.map((id, index) => ({
      _id: id,
      userId: hex(ids.rider),
      listId: ids.list,
      name: `Kickflip ${index}`,
      attempts: String(index + 5),
      createdAt: 1_600_000_000_000 + index,
    })),
  );
  await db.collection('spots').insertOne({
    _id: ids.spot,
    name: 'Bowl',
    sports: 'skateboarding',
    createdAt: at,
    stays: [
      { _id: ids.stay, name: 'Inn', createdAt: '2022-02-02T00:00:00Z' },
      { _id: hex(new ObjectId()), name: 'Camp', createdAt: at, rating: 'great' },
    ],
  });
  await db.collection('events').insertMany([
    {
      _id: ids.event,
      title: 'Jam',
      startAt: '2026-07-04T12:00:00Z',
      venue: { city: 'Austin', lat: '30.27' },
      possibleDuplicateOf: hex(new ObjectId()),
      createdAt: 'not a date',
    },
    { _id: hex(ids.textEvent) as unknown as ObjectId, title: 'String id jam', startAt: at },
  ]);
  await db.collection('event_saves').insertOne({
    _id: ids.save,
    userId: ids.rider,
    eventId: hex(ids.event),
    createdAt: at,
  });
  await db.collection('feed_posts').insertOne({
    _id: ids.post,
    userId: ids.rider,
    counts: { love: Decimal128.fromString('3'), respect: 1, comments: '2' },
    createdAt: at,
  });
  await db.collection('legacy_leftovers').insertOne({ anything: true });
}

const snapshot = async (db: Db) => {
  const all: Record<string, Document[]> = {};
  for (const { name } of await db.listCollections().toArray())
    all[name] = await db.collection(name).find().sort({ _id: 1 }).toArray();
  return all;
};

describe('npm run db:doctor over a messy database', () => {
  let db: Db;
  beforeAll(async () => {
    db = dev.client.db(DB);
    await seedMess(db);
  });

  it('reports per collection and field how many documents have each problem, by id, and writes nothing', async () => {
    const before = await snapshot(db);
    const report = await doctor();
    expect(report).toEqual(
      expect.arrayContaining([
        'db:doctor on doctor',
        'users: 5 scanned',
        `  createdAt: date stored as text: 1 (repairable) ids ${hex(ids.spaced)}`,
        `  email: email collides with another once trimmed and lower-cased: 2 (NOT repaired) ids ${hex(ids.upper)} ${hex(ids.lower)}`,
        `  email: email with spaces or capitals: 1 (repairable) ids ${hex(ids.spaced)}`,
        `  nameWords: search field missing or stale: 2 (repairable) ids ${hex(ids.spaced)} ${hex(ids.stale)}`,
        `  attempts: number stored as text: 3 (repairable) ids ${ids.tricks.map(hex).join(' ')}`,
        `  userId: id stored as text: 3 (repairable) ids ${ids.tricks.map(hex).join(' ')}`,
        `  stays.$.createdAt: date stored as text: 1 (repairable) ids ${hex(ids.spot)}`,
        `  stays.$._id: id stored as an ObjectId: 1 (repairable) ids ${hex(ids.spot)}`,
        `  stays.$.rating: unreadable number: 1 (NOT repaired) ids ${hex(ids.spot)}`,
        `  sports: list stored as one value: 1 (repairable) ids ${hex(ids.spot)}`,
        `  createdAt: unreadable date: 1 (NOT repaired) ids ${hex(ids.event)}`,
        // Others name a document by its id: a text _id is listed, never changed in place.
        `  _id: id stored as text: 1 (NOT repaired) ids ${hex(ids.textEvent)}`,
        `  venue.lat: number stored as text: 1 (repairable) ids ${hex(ids.event)}`,
        `  userId: id stored as an ObjectId: 1 (repairable) ids ${hex(ids.save)}`,
        `  counts.love: number stored as Decimal128 or Int64: 1 (repairable) ids ${hex(ids.post)}`,
        "not the service's collections (not checked): legacy_leftovers",
      ]),
    );
    // Counts and ids only: no stored content reaches the report.
    for (const content of ['Spaced Rider', 'spaced@example.com', 'Kickflip', 'Austin', 'Inn'])
      expect(report.join('\n').toLowerCase()).not.toContain(content.toLowerCase());
    expect(await snapshot(db)).toEqual(before);
  });

  it('--fix repairs what is safe in place and leaves the rest as it was', async () => {
    await doctor('--fix', '--batch=2');
    const user = (id: ObjectId) => db.collection('users').findOne({ _id: id });
    expect(await user(ids.spaced)).toMatchObject({
      email: 'spaced@example.com',
      nameWords: nameWords('Spaced Rider'),
      createdAt: new Date('2020-01-02T03:04:05Z'),
    });
    expect(await user(ids.stale)).toMatchObject({ nameWords: ['zoe', 'park'] });
    expect((await user(ids.upper))?.email).toBe('Twin@Example.com');
    expect((await user(ids.lower))?.email).toBe('twin@example.com ');
    for (const [index, id] of ids.tricks.entries())
      expect(await db.collection('tricks').findOne({ _id: id })).toMatchObject({
        userId: ids.rider,
        attempts: index + 5,
        createdAt: new Date(1_600_000_000_000 + index),
      });
    const spot = await db.collection('spots').findOne({ _id: ids.spot });
    expect(spot).toMatchObject({ sports: ['skateboarding'] });
    expect(spot?.stays).toEqual([
      { _id: hex(ids.stay), name: 'Inn', createdAt: new Date('2022-02-02T00:00:00Z') },
      expect.objectContaining({ name: 'Camp', rating: 'great' }),
    ]);
    const event = await db.collection('events').findOne({ _id: ids.event });
    expect(event).toMatchObject({ startAt: new Date('2026-07-04T12:00:00Z'), venue: { lat: 30.27 } });
    expect(event?.possibleDuplicateOf).toEqual([expect.any(ObjectId)]);
    expect(event?.createdAt).toBe('not a date');
    expect(await db.collection('event_saves').findOne({ _id: ids.save })).toMatchObject({ userId: hex(ids.rider) });
    expect((await db.collection('feed_posts').findOne({ _id: ids.post }))?.counts).toEqual({
      love: 3,
      respect: 1,
      comments: 2,
    });
  });

  it('a second --fix changes nothing and lists only what it will not repair', async () => {
    const before = await snapshot(db);
    const report = await doctor('--fix');
    expect(await snapshot(db)).toEqual(before);
    expect(report.filter((line) => line.includes('(repaired)'))).toEqual([]);
    expect(report.at(-1)).toMatch(/^total: 0 repaired, \d+ not repaired/);
    expect(report).toContain(
      `  email: email collides with another once trimmed and lower-cased: 2 (NOT repaired) ids ${hex(ids.upper)} ${hex(ids.lower)}`,
    );
  });

  it('an interrupted --fix resumes after the last batch it finished', async () => {
    const tricks = [new ObjectId(), new ObjectId(), new ObjectId()].sort((a, b) =>
      a.toHexString().localeCompare(b.toHexString()),
    );
    await db.collection('tricks').insertMany(tricks.map((id) => ({ _id: id, attempts: '1' })));
    // As a run stopped after its first batch of one leaves it.
    await db.collection<Document>('migration_checkpoints').insertOne({
      _id: 'db-doctor:tricks' as never,
      lastId: tricks[0],
      migrated: 0,
      done: false,
      updatedAt: new Date(),
    });
    const report = await doctor('--fix', '--collection=tricks', '--batch=1');
    expect(report).toContain(`tricks: 2 scanned, 2 repaired, resumed after ${hex(tricks[0]!)}`);
    const attempts = await db
      .collection('tricks')
      .find({ _id: { $in: tricks } })
      .sort({ _id: 1 })
      .toArray();
    expect(attempts.map((trick) => trick.attempts)).toEqual(['1', 1, 1]);
    // Finished: the next run scans the whole collection again and repairs the one left.
    expect(await doctor('--fix', '--collection=tricks')).toContain('tricks: 6 scanned, 1 repaired');
    expect(await db.collection('migration_checkpoints').countDocuments({ _id: 'db-doctor:tricks' as never })).toBe(0);
  });
});
