import { unzipSync } from 'fflate';
import { type Db, Decimal128, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { writeExportArchive } from '../../../worker/accounts/exports/archive';
import { WITHHELD } from '../../../worker/accounts/exports/readable';
import { exportSections } from '../../../worker/accounts/exports/sections';
import { COLLECTION_NAMES, PERSONAL_DATA } from '../../../worker/data';
import { openRequestConnection } from '../../../worker/platform/db/connection';
import { createStore, type Store } from '../../../worker/platform/db/store';
import { register, type TestAccount } from '../../support/accounts';
import { seedPersonalData } from '../../support/personal-data';
import { createApi } from '../../support/worker-api';

const api = createApi('export-archive');
const bucket = () => api.env.MEDIA;
const wanted = { stillWanted: async () => true };

/** Every document id of every collection, to tell what a seed added. */
async function allIds(db: Db): Promise<Map<string, Set<string>>> {
  const ids = new Map<string, Set<string>>();
  for (const name of COLLECTION_NAMES) {
    ids.set(
      name,
      new Set(
        (
          await db
            .collection(name)
            .find({}, { projection: { _id: 1 } })
            .toArray()
        ).map((d) => String(d._id)),
      ),
    );
  }
  return ids;
}

const added = (before: Map<string, Set<string>>, after: Map<string, Set<string>>) =>
  new Map([...after].map(([name, ids]) => [name, new Set([...ids].filter((id) => !before.get(name)?.has(id)))]));

/** The stores a build may be handed: a request's, over the database gateway, and a direct client's. */
const STORES = {
  gateway: <T>(use: (store: Store) => Promise<T>) =>
    use(openRequestConnection({ ...api.env, DB_ACCESS: 'gateway' }).store),
  direct: <T>(use: (store: Store) => Promise<T>) => api.db((db) => use(createStore(() => db))),
};

async function buildAndUnzip(
  withStore: (typeof STORES)[keyof typeof STORES],
  rider: ObjectId,
  key: string,
): Promise<Record<string, Uint8Array>> {
  const result = await withStore((store) =>
    writeExportArchive(store, bucket(), rider, key, { ...wanted, personalData: PERSONAL_DATA }),
  );
  if (result === 'withdrawn') throw new Error('withdrawn');
  const object = await bucket().get(key);
  const zip = new Uint8Array(await object!.arrayBuffer());
  expect(zip.length).toBe(result.bytes);
  return unzipSync(zip);
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
const json = (files: Record<string, Uint8Array>, name: string) =>
  JSON.parse(text(files[name])) as Record<string, unknown>[];

/** A conversation between the two, with a message from each, and the other rider's data around the rider. */
async function seedShared(db: Db, rider: TestAccount, other: TestAccount) {
  const [riderId, otherId] = [new ObjectId(rider._id), new ObjectId(other._id)];
  const now = new Date('2026-05-01T10:00:00Z');
  const conversationId = new ObjectId();
  await db.collection('conversations').insertOne({
    _id: conversationId,
    participantIds: [riderId, otherId],
    participantKey: [rider._id, other._id].sort().join('-'),
    lastActivityAt: now,
    lastMessageId: null,
    readMarkers: [{ userId: otherId, messageId: null, readAt: now }],
    createdAt: now,
  });
  await db.collection('dm_messages').insertMany([
    { conversationId, userId: riderId, text: 'rider says hi', createdAt: now },
    // Older code stored the conversation's id as a string.
    {
      conversationId: conversationId.toHexString(),
      userId: otherId.toHexString(),
      text: 'other says hi',
      createdAt: now,
    },
    { conversationId: new ObjectId(), userId: otherId, text: 'other elsewhere', createdAt: now },
  ]);
  await db.collection('follows').insertOne({ followerId: otherId, followedId: riderId, createdAt: now });
  await db.collection('reports').insertOne({
    reporterId: otherId,
    targetType: 'user',
    targetId: riderId,
    reason: 'spam',
    note: 'words of the reporter',
    status: 'open',
    createdAt: now,
  });
  await db.collection('sessions').insertOne({ userId: otherId, familyId: 'other-family', tokenHash: 'other-hash' });
  await db.collection('sessions').insertOne({ userId: riderId, familyId: 'rider-family', tokenHash: 'rider-hash' });
  await db.collection('feed_posts').insertOne({ userId: otherId, text: 'post of the other rider', createdAt: now });
  return conversationId;
}

describe('the export archive', () => {
  it.each(Object.keys(STORES) as (keyof typeof STORES)[])(
    "holds every personal-data collection's documents of the rider, and nothing private of another rider (%s store)",
    async (mode) => {
      const rider = await register(api, { name: 'Rider <One>' });
      const other = await register(api, { name: 'Other Two' });
      const riderId = new ObjectId(rider._id);
      const mediaId = new ObjectId();
      const photo = crypto.getRandomValues(new Uint8Array(60_000));
      const { mine, theirs } = await api.db(async (db) => {
        const before = await allIds(db);
        await seedPersonalData(db, riderId);
        // The rider's own photo, in the MEDIA bucket as the upload stored it.
        await db
          .collection('media')
          .insertOne({ _id: mediaId, ownerId: riderId, key: `media/${mediaId}`, type: 'image/jpeg' });
        // Shapes older code stored: an id of another type, the owner as a hex string, a date as epoch seconds, odd numbers.
        await db.collection('feed_posts').insertOne({
          _id: `legacy-${rider._id}` as unknown as ObjectId,
          userId: rider._id,
          createdAt: 1_500_000_000,
          counts: { love: Decimal128.fromString('2'), respect: Long.fromNumber(1), comments: 'three' },
          media: 'https://old.example/photo.jpg',
        });
        const mine = added(before, await allIds(db));
        const middle = await allIds(db);
        await seedPersonalData(db, new ObjectId(other._id));
        const theirs = added(middle, await allIds(db));
        await seedShared(db, rider, other);
        return { mine, theirs };
      });
      await bucket().put(`media/${mediaId}`, photo);

      const files = await buildAndUnzip(STORES[mode], riderId, `exports/${crypto.randomUUID()}.zip`);

      for (const { collection, file } of exportSections(PERSONAL_DATA)) {
        const exported = new Set(json(files, file).map((doc) => String(doc._id)));
        // Another rider's account that names this one (a suspension an admin set) is that rider's: the account file
        // holds the rider's own only.
        const expected = collection === 'users' ? [rider._id] : (mine.get(collection) ?? []);
        for (const id of expected) expect(exported, `${file} has ${id}`).toContain(id);
        if (collection === 'users') expect([...exported]).toEqual([rider._id]);
      }
      expect(exportSections(PERSONAL_DATA).map((s) => s.collection)).toEqual(
        expect.arrayContaining([...new Set(PERSONAL_DATA.map((cleanup) => cleanup.collection))]),
      );
      // Nothing of the other rider's own documents, except their messages in the shared conversation.
      const everything = Object.entries(files)
        .filter(([name]) => !name.startsWith('media/'))
        .map(([name, bytes]) => [name, text(bytes)] as const);
      for (const [name, body] of everything) {
        expect(body, name).not.toContain(other.email);
        expect(body, name).not.toContain(other._id);
        expect(body, name).not.toContain('other-hash');
        expect(body, name).not.toContain('rider-hash');
        expect(body, name).not.toContain('words of the reporter');
        expect(body, name).not.toContain('other elsewhere');
        expect(body, name).not.toContain('post of the other rider');
        if (!['conversations.json', 'dm_messages.json'].includes(name)) expect(body, name).not.toContain('Other Two');
      }
      for (const [collection, ids] of theirs) {
        if (collection === 'users') continue;
        const file = exportSections(PERSONAL_DATA).find((s) => s.collection === collection)?.file;
        const exported = file ? new Set(json(files, file).map((doc) => String(doc._id))) : new Set<string>();
        const shared = collection === 'conversations' || collection === 'dm_messages';
        for (const id of ids) if (!shared) expect(exported, `${file} leaves out ${id}`).not.toContain(id);
      }

      const account = json(files, 'account.json');
      expect(account).toEqual([expect.objectContaining({ _id: rider._id, email: rider.email, password: WITHHELD })]);
      const messages = json(files, 'dm_messages.json').filter(
        (doc) => typeof doc.text === 'string' && doc.text.endsWith('says hi'),
      );
      expect(messages.map((doc) => [doc.userId, doc.text])).toEqual([
        [rider._id, 'rider says hi'],
        ['Other Two', 'other says hi'],
      ]);
      expect(messages[0]!.createdAt).toBe('2026-05-01T10:00:00.000Z');
      const conversation = json(files, 'conversations.json').find(
        (doc) => Array.isArray(doc.participantIds) && doc.participantIds.length === 2,
      );
      expect(conversation?.participantIds).toEqual([rider._id, 'Other Two']);
      const report = json(files, 'reports.json').find((doc) => doc.reason === 'spam');
      expect(report).toMatchObject({ reporterId: 'another rider', targetId: rider._id, note: WITHHELD });
      expect(json(files, 'follows.json')).toContainEqual(
        expect.objectContaining({ followerId: 'another rider', followedId: rider._id }),
      );
      expect(json(files, 'sessions.json')).toContainEqual(
        expect.objectContaining({ familyId: 'rider-family', tokenHash: WITHHELD }),
      );

      expect(json(files, 'feed_posts.json')).toContainEqual({
        _id: `legacy-${rider._id}`,
        userId: rider._id,
        createdAt: 1_500_000_000,
        counts: { love: '2', respect: 1, comments: 'three' },
        media: 'https://old.example/photo.jpg',
      });
      expect(files[`media/${mediaId}.jpg`]).toEqual(photo);
      const readme = text(files['README.html']);
      for (const { file } of exportSections(PERSONAL_DATA)) expect(readme).toContain(`<code>${file}</code>`);
      expect(readme).not.toContain('<One>');
    },
  );

  it('stops when the export is no longer wanted, leaving no object and no open upload', async () => {
    const rider = await register(api);
    const riderId = new ObjectId(rider._id);
    const partBytes = 5 * 1024 * 1024;
    await api.db((db) =>
      db
        .collection('media')
        .insertMany(
          [0, 1, 2].map((n) => ({ ownerId: riderId, key: `withdrawn/${rider._id}/${n}`, type: 'video/mp4' })),
        ),
    );
    for (const n of [0, 1, 2])
      await bucket().put(`withdrawn/${rider._id}/${n}`, new Uint8Array(4 * 1024 * 1024).fill(n));
    const key = `exports/${crypto.randomUUID()}.zip`;
    let uploadId = '';
    // The bucket itself, only noting the upload's id so the test can look for it after.
    const observed = new Proxy(bucket(), {
      get(target, name) {
        if (name !== 'createMultipartUpload') return Reflect.get(target, name).bind(target);
        return async (...args: Parameters<R2Bucket['createMultipartUpload']>) => {
          const upload = await target.createMultipartUpload(...args);
          uploadId = upload.uploadId;
          return upload;
        };
      },
    });
    let asked = 0;
    // Wanted until the second video is in: by then a part has gone up.
    const mediaAsks = exportSections(PERSONAL_DATA).length + 3;
    const result = await api.db((db) =>
      writeExportArchive(
        createStore(() => db),
        observed,
        riderId,
        key,
        {
          personalData: PERSONAL_DATA,
          partBytes,
          stillWanted: async () => ++asked < mediaAsks,
        },
      ),
    );

    expect(result).toBe('withdrawn');
    expect(asked).toBe(mediaAsks);
    expect(await bucket().head(key)).toBeNull();
    const upload = bucket().resumeMultipartUpload(key, uploadId);
    await expect(upload.uploadPart(1, new Uint8Array(1))).rejects.toThrow();
  });
});
