import { type Filter, ObjectId } from 'mongodb';
import type { EndedTokens } from '../../../durable-objects/socket-attachment';
import type { Store } from '../../platform/db/store';
import { LIMITS } from '../../platform/limits';
import type { SessionDoc } from '../documents';

// Every query on `sessions`. Outcomes that are not a session come back as values, not HTTP errors.

export interface NewSession {
  userId: ObjectId;
  familyId: string;
  tokenHash: string;
  device: string;
  ttlMs: number;
}

export async function createSession(store: Store, fields: NewSession): Promise<SessionDoc> {
  const now = new Date();
  const { ttlMs, ...rest } = fields;
  const session: SessionDoc = {
    _id: new ObjectId(),
    ...rest,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
    revokedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await store.sessions.insertOne(session);
  return session;
}

export type RotateOutcome =
  | { session: SessionDoc }
  | 'not-recognised'
  | 'expired'
  | 'revoked'
  /** A spent token presented after the grace window: the whole session (this one) was revoked, and these tokens end. */
  | { reused: SessionDoc; ended: EndedTokens };

/**
 * Spends the presented token for its successor with one compare-and-set on the session (the
 * filter names the expected live hash), so of many parallel refreshes exactly one rotates; the
 * others, inside the grace window, find the same successor already live.
 */
export async function rotateSession(
  store: Store,
  presented: { familyId: string; hash: string; successorHash: string },
  timing: { ttlMs: number; graceMs: number; accessTtlS: number },
): Promise<RotateOutcome> {
  const now = new Date();
  const { familyId, hash, successorHash } = presented;
  const rotated = await store.sessions.findOneAndUpdate(
    { familyId, tokenHash: hash, revokedAt: null, expiresAt: { $gt: now } },
    {
      $set: {
        tokenHash: successorHash,
        previousHash: hash,
        rotatedAt: now,
        lastUsedAt: now,
        expiresAt: new Date(now.getTime() + timing.ttlMs),
        updatedAt: now,
      },
    },
    { returnDocument: 'after' },
  );
  if (rotated) return { session: rotated };

  const session = await store.sessions.findOne({ familyId });
  if (!session) return 'not-recognised';
  if (session.revokedAt) return 'revoked';
  if (session.expiresAt <= now) return 'expired';
  const retried =
    session.previousHash === hash &&
    session.tokenHash === successorHash &&
    session.rotatedAt !== undefined &&
    now.getTime() - session.rotatedAt.getTime() <= timing.graceMs;
  if (retried) return { session };
  // A spent token (or a forged one naming this family) outside the window: RFC 9700 revokes the family.
  const sid = session._id.toHexString();
  const ended = (await revokeWhere(store, { _id: session._id }))
    ? await endSessionsAccess(store, session.userId, [sid], timing.accessTtlS)
    : { sessions: [sid] };
  return { reused: session, ended };
}

async function revokeWhere(store: Store, filter: Filter<SessionDoc>): Promise<number> {
  const now = new Date();
  const result = await store.sessions.updateMany(
    { ...filter, revokedAt: null },
    { $set: { revokedAt: now, updatedAt: now } },
  );
  return result.modifiedCount;
}

/**
 * Revokes one of the user's sessions and ends its access tokens: the tokens that end, or null when it is not theirs,
 * unknown or already revoked. `accessTtlS` bounds how long the account must remember it (its last access token's
 * lifetime).
 */
export async function revokeSession(
  store: Store,
  userId: ObjectId,
  sessionId: ObjectId,
  accessTtlS: number,
): Promise<EndedTokens | null> {
  const revoked = await revokeWhere(store, { _id: sessionId, userId });
  return revoked ? endSessionsAccess(store, userId, [sessionId.toHexString()], accessTtlS) : null;
}

/**
 * Puts the sessions on the account's revoked list, read by every access check, and answers the tokens that end.
 * Entries past their `until` are pruned first; a list with no room for them all (that many revocations within one
 * access-token lifetime) ends every token of the account instead, so the list stays bounded and nothing revoked is
 * forgotten while it could still be used.
 */
async function endSessionsAccess(
  store: Store,
  userId: ObjectId,
  sids: string[],
  accessTtlS: number,
): Promise<EndedTokens> {
  const now = new Date();
  await store.users.updateOne({ _id: userId }, { $pull: { revokedSessions: { until: { $lte: now } } } });
  const until = new Date(now.getTime() + accessTtlS * 1000);
  // The list has room for them all while it holds no entry at this index.
  const room = LIMITS.sessions.revokedSessionsMax - sids.length;
  if (room >= 0) {
    const pushed = await store.users.updateOne(
      { _id: userId, [`revokedSessions.${room}`]: { $exists: false } },
      { $push: { revokedSessions: { $each: sids.map((sid) => ({ sid, until })) } } },
    );
    if (pushed.matchedCount) return { sessions: sids };
  }
  const raised = await store.users.findOneAndUpdate(
    { _id: userId },
    { $inc: { tokenVersion: 1 } },
    { returnDocument: 'after', projection: { tokenVersion: 1 } },
  );
  return { belowVersion: raised?.tokenVersion ?? 0 };
}

export const revokeAllSessions = (store: Store, userId: ObjectId) => revokeWhere(store, { userId });

/** Every session of the user but `keep` (the caller's own, when it has one); the ids of those it revoked. */
async function revokeSessionsBut(store: Store, userId: ObjectId, keep: ObjectId | undefined): Promise<string[]> {
  // One time for the whole revocation, so the sessions it revoked are read back by it.
  const revokedAt = new Date();
  const others: Filter<SessionDoc> = keep ? { userId, _id: { $ne: keep } } : { userId };
  const result = await store.sessions.updateMany(
    { ...others, revokedAt: null },
    { $set: { revokedAt, updatedAt: revokedAt } },
  );
  if (!result.modifiedCount) return [];
  const revoked = await store.sessions.find({ ...others, revokedAt }, { projection: { _id: 1 } }).toArray();
  return revoked.map((session) => session._id.toHexString());
}

/**
 * Revokes every session of the user but `keep` (refresh tokens only: the caller also ends their access tokens, as a
 * password change does by the account's token version); how many it revoked.
 */
export const revokeOtherSessions = async (store: Store, userId: ObjectId, keep: ObjectId | undefined) =>
  (await revokeSessionsBut(store, userId, keep)).length;

/**
 * Revokes every session of the user but `keep` and ends their access tokens at once, as signing each out would:
 * the tokens that end, or null when there was no other session.
 */
export async function endOtherSessions(
  store: Store,
  userId: ObjectId,
  keep: ObjectId | undefined,
  accessTtlS: number,
): Promise<EndedTokens | null> {
  const revoked = await revokeSessionsBut(store, userId, keep);
  return revoked.length ? endSessionsAccess(store, userId, revoked, accessTtlS) : null;
}

/** The user's live sessions, newest first, `limit + 1` rows for the pager; never a hash. */
export function liveSessions(store: Store, userId: ObjectId, page: { cursor?: ObjectId; limit: number }) {
  const filter: Filter<SessionDoc> = { userId, revokedAt: null, expiresAt: { $gt: new Date() } };
  if (page.cursor) filter._id = { $lt: page.cursor };
  return store.sessions
    .find(filter, { projection: { tokenHash: 0, previousHash: 0, familyId: 0 } })
    .sort({ _id: -1 })
    .limit(page.limit + 1)
    .toArray();
}

/** Requests per day presenting a legacy token, for the days in [from, to] that have any. */
export function legacyUsage(store: Store, from: string, to: string) {
  return store.legacy_token_usage.find({ _id: { $gte: from, $lte: to } }).toArray();
}
