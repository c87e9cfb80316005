import { type Db, ObjectId } from 'mongodb';
import { PERSONAL_DATA } from '../../worker/data';
import type { CollectionName } from '../../worker/platform/db/collections';

/** Where a collection names the user, when not in `userId`. */
const OWNER_FIELD: Partial<Record<CollectionName, string>> = {
  spots: 'createdBy',
  blog: 'authorId',
  conversations: 'participantIds',
  mobile_version_policy_history: 'actorId',
  // Change-log rows name an admin who made a change, as a hex string (worker/events/changes/record.ts).
  eventChangeLog: 'by',
};

/**
 * The fields a cleanup's filter matches, with the user as `owner`: one document per entry that its own
 * filter selects (user_blocks, follows and reports have one entry per field, reports one for reports about the user).
 */
const matchedBy = (cleanup: (typeof PERSONAL_DATA)[number], userId: ObjectId, owner: unknown) => {
  const filter: Record<string, unknown> =
    'remove' in cleanup
      ? cleanup.remove(userId)
      : 'detach' in cleanup
        ? cleanup.detach(userId).filter
        : cleanup.removeEach(userId);
  // A filter matching the user's id in both stored forms (worker/platform/db/id-match.ts) names the user too.
  const namesUser = (value: unknown) =>
    value === userId || ((value as { $in?: unknown[] } | null)?.$in?.includes(userId) ?? false);
  const fields = Object.entries(filter).filter(([, value]) => namesUser(value) || typeof value === 'string');
  return fields.some(([, value]) => namesUser(value))
    ? Object.fromEntries(fields.map(([key, value]) => [key, namesUser(value) ? owner : value]))
    : undefined;
};

/** A filter's dotted paths (events' `review.by`) as the nested fields a document holds. */
function nested(fields: Record<string, unknown>): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(fields)) {
    const keys = path.split('.');
    let at = doc;
    for (const key of keys.slice(0, -1)) {
      at[key] ??= {};
      at = at[key] as Record<string, unknown>;
    }
    at[keys[keys.length - 1]!] = value;
  }
  return doc;
}

/** One document per personal-data collection, shaped as each cleanup expects. */
export async function seedPersonalData(db: Db, userId: ObjectId): Promise<void> {
  const now = new Date();
  for (const cleanup of PERSONAL_DATA) {
    const owner = ['event_saves', 'eventChangeLog'].includes(cleanup.collection) ? userId.toHexString() : userId;
    const field = OWNER_FIELD[cleanup.collection];
    // Fresh values for the fields unique indexes cover (eventId, token, idempotencyKey, providerEventId, slug, installationId, installationRecordId, familyId, dedupeKey, jobKey, key, callId, pairKey, email).
    const unique = {
      eventId: crypto.randomUUID(),
      token: crypto.randomUUID(),
      idempotencyKey: crypto.randomUUID(),
      providerEventId: crypto.randomUUID(),
      slug: crypto.randomUUID(),
      installationId: crypto.randomUUID(),
      installationRecordId: new ObjectId(),
      familyId: crypto.randomUUID(),
      dedupeKey: crypto.randomUUID(),
      jobKey: crypto.randomUUID(),
      key: crypto.randomUUID(),
      callId: crypto.randomUUID(),
      pairKey: crypto.randomUUID(),
      email: `${crypto.randomUUID()}@example.com`,
    };
    // Spots also embed stays (worker/riding/stays/), each naming its creator.
    const stay = { _id: new ObjectId().toHexString(), name: 'kept?', type: 'other', createdBy: owner, createdAt: now };
    const stays = cleanup.collection === 'spots' ? { stays: [stay] } : {};
    // Conversations name their participants in arrays and in the set's key (worker/social/conversations/service.ts).
    const member =
      cleanup.collection === 'conversations'
        ? {
            participantIds: [owner],
            participantKey: `${userId.toHexString()}-${crypto.randomUUID()}`,
            readMarkers: [{ userId: owner, messageId: null, readAt: now }],
          }
        : field
          ? { [field]: owner }
          : nested(matchedBy(cleanup, userId, owner) ?? { userId: owner });
    await db
      .collection(cleanup.collection)
      .insertOne({ ...member, name: 'kept?', ...unique, ...stays, createdAt: now, updatedAt: now });
  }
}
