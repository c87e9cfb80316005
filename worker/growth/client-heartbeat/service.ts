import { ObjectId } from 'mongodb';
import { onDuplicateKey } from '../../platform/db/errors';
import type { Store } from '../../platform/db/store';
import type { ClientInstallationDoc } from '../documents';

/** What a heartbeat replaces on the installation's record; every other reported field is the server's to keep. */
const REPORTED = [
  'platform',
  'appVersion',
  'buildNumber',
  'osFamily',
  'deviceFamily',
  'locale',
  'timezone',
  'notificationCapability',
] as const satisfies readonly (keyof ClientInstallationDoc)[];

export type Heartbeat = Pick<ClientInstallationDoc, 'installationId' | (typeof REPORTED)[number]> & {
  firstSeenAt?: Date;
};

/**
 * Upserts the installation in one atomic update that also counts the heartbeat; the before-image says
 * whether the version changed and which heartbeat this was, so racing heartbeats each see exactly their
 * predecessor: a change is appended once, never lost, and its unique (installationId, heartbeat) blocks a duplicate.
 */
export async function recordHeartbeat(store: Store, beat: Heartbeat, userId: ObjectId | null) {
  const now = new Date();
  const { firstSeenAt, installationId } = beat;
  // Named fields only: a reported time (lastSeenAt) or any later field must not collide with the server's own.
  const current = Object.fromEntries(REPORTED.map((field) => [field, beat[field]]));
  const firstSeen = firstSeenAt && firstSeenAt < now ? firstSeenAt : now;
  const newRecordId = new ObjectId();
  const upsert = () =>
    store.client_installations.findOneAndUpdate(
      { installationId },
      {
        $set: { ...current, updatedAt: now, ...(userId ? { userId } : {}) },
        $min: { firstSeenAt: firstSeen },
        $max: { lastSeenAt: now },
        $inc: { heartbeats: 1 },
        $setOnInsert: { _id: newRecordId, createdAt: now },
      },
      { upsert: true, returnDocument: 'before' },
    );
  // Two first heartbeats raced to insert: the loser updates the winner's record (unique installationId).
  const before = await onDuplicateKey(upsert, upsert);
  if (userId && before && !before.userId?.equals(userId)) {
    // Linking: the device's earlier, anonymous version changes become the rider's (and go with their account).
    await store.client_version_history.updateMany(
      { installationRecordId: before._id, userId: { $exists: false } },
      { $set: { userId } },
    );
  }
  const versionChanged = !before || before.appVersion !== beat.appVersion || before.buildNumber !== beat.buildNumber;
  if (versionChanged) {
    const linkedTo = userId ?? before?.userId;
    await store.client_version_history.insertOne({
      _id: new ObjectId(),
      installationId,
      // The loser of a racing first insert updated the winner's record, so `before` names it.
      installationRecordId: before?._id ?? newRecordId,
      ...(linkedTo ? { userId: linkedTo } : {}),
      platform: beat.platform,
      fromVersion: before?.appVersion ?? null,
      fromBuild: before?.buildNumber ?? null,
      toVersion: beat.appVersion,
      toBuild: beat.buildNumber,
      heartbeat: (before?.heartbeats ?? 0) + 1,
      changedAt: now,
      createdAt: now,
    });
  }
  const earliest = before && before.firstSeenAt < firstSeen ? before.firstSeenAt : firstSeen;
  const latest = before && before.lastSeenAt > now ? before.lastSeenAt : now;
  return { ...beat, linked: userId !== null, versionChanged, firstSeenAt: earliest, lastSeenAt: latest };
}
