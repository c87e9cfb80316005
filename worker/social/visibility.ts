import type { Filter, ObjectId } from 'mongodb';
import type { UserDoc } from '../accounts/documents';
import { readSuspension } from '../accounts/users/read-user';
import { isWithheld, type Withheld } from '../moderation/documents';
import { BoundedCache } from '../platform/bounded-cache';
import { wholeNumberSetting } from '../platform/config';
import { databaseName } from '../platform/db/database-name';
import { anyIdOf } from '../platform/db/id-match';
import type { Store } from '../platform/db/store';
import { readId, readRecord, sameId } from '../platform/db/stored-values';
import type { Env } from '../platform/env';
import { LIMITS } from '../platform/limits';
import type { Audience } from '../platform/realtime/publish';
import { activeSuspension } from '../platform/tokens/suspension';

// What others may not see (docs/moderation.md, "Held for review"): a post, comment or photo carrying `withheld`
// (held for review or by reports) is its author's alone, and a rider with an active suspension or a withheld
// account has their posts, comments and profile hidden from everyone else. Nothing is rewritten when either
// ends: every read others make goes through here, so lifting one shows the content again.

/**
 * Whether a stored account hides its rider from others now: withheld, or suspended as the access checks read it
 * (the accounts domain's reader: an end that cannot be read keeps the rider suspended).
 */
export function accountHidden(user: unknown, now: Date): boolean {
  const stored = readRecord(user);
  if (!stored) return false;
  if (isWithheld(stored.withheld)) return true;
  const suspension = readSuspension(stored.suspension);
  return suspension !== undefined && activeSuspension({ suspension }, now) !== null;
}

/** The accounts accountHidden answers true for, as a query: a partial index on each field serves it. */
const hiddenAccounts = (now: Date) =>
  ({
    $or: [
      { withheld: { $exists: true, $ne: null } },
      { suspension: { $exists: true }, 'suspension.until': null },
      { 'suspension.until': { $gt: now } },
    ],
  }) as Filter<UserDoc>;

type CachedSet = { ids: Promise<Set<string>>; readAt: number };
// Keyed by database name: the tests' files each have their own database in one isolate. The age is checked on read,
// against HIDDEN_RIDERS_CACHE_MS, so the entries themselves never expire here.
const cache = new BoundedCache<CachedSet>(LIMITS.moderation.hiddenRidersCacheEntries, Number.POSITIVE_INFINITY);

async function readHiddenRiders(store: Store, now: Date): Promise<Set<string>> {
  const rows = await store.users
    .find(hiddenAccounts(now), { projection: { _id: 1, withheld: 1, suspension: 1 } })
    .limit(LIMITS.moderation.hiddenRidersMax)
    .toArray();
  return new Set(rows.flatMap((row) => (accountHidden(row, now) ? (readId(row._id)?.toHexString() ?? []) : [])));
}

/**
 * Hex ids of every rider hidden from others now, read at most once per HIDDEN_RIDERS_CACHE_MS per isolate: a
 * suspension, a lift or a withheld account shows in lists within that time (in one post's read and a profile too).
 */
export async function hiddenRiders(store: Store, env: Env): Promise<Set<string>> {
  const ttl = wholeNumberSetting(env, 'HIDDEN_RIDERS_CACHE_MS', LIMITS.moderation.hiddenRidersCacheMs);
  const now = Date.now();
  // Named from the settings: a gateway store's Db is a stand-in that knows no name (worker/platform/db/gateway-store.ts).
  const key = databaseName(env.MONGODB_URI, env.MONGODB_DB);
  const cached = ttl > 0 ? cache.get(key) : undefined;
  if (cached && now - cached.readAt < ttl) return cached.ids;
  const ids = readHiddenRiders(store, new Date(now));
  if (ttl > 0) {
    cache.set(key, { ids, readAt: now });
    // A failed read is not kept: the next request tries again.
    ids.catch(() => {
      if (cache.get(key)?.ids === ids) cache.forgetWhere((stale) => stale === key);
    });
  }
  return ids;
}

/** The hidden riders a reader must not see: all of them, but never the reader themselves. */
export async function hiddenRidersFor(store: Store, env: Env, readerId: ObjectId | null): Promise<Set<string>> {
  const hidden = await hiddenRiders(store, env);
  if (!readerId || !hidden.has(readerId.toHexString())) return hidden;
  const others = new Set(hidden);
  others.delete(readerId.toHexString());
  return others;
}

/** Posts or comments (by `userId`) a reader may see in a query: none held, but the reader's own held ones. */
export function shownTo(readerId: ObjectId | null): Filter<{ withheld?: Withheld; userId: ObjectId }> {
  const notHeld = { withheld: { $exists: false } };
  return readerId ? { $or: [notHeld, { userId: anyIdOf(readerId) }] } : notHeld;
}

/** Whether a stored post, comment (`userId`) or media item (`ownerId`) is held from this reader. */
export function heldFrom(
  stored: { withheld?: unknown; userId?: unknown; ownerId?: unknown },
  readerId: ObjectId | null,
) {
  if (!isWithheld(stored.withheld)) return false;
  return !readerId || !sameId(stored.userId ?? stored.ownerId, readerId);
}

/**
 * Who hears in real time of a post's creation or new counts: its author alone while the post is held or the author
 * is hidden (suspended or withheld), else every feed reader but those on either side of a block with the author.
 */
export function postAudience(
  post: { withheld?: unknown; userId?: unknown },
  authorHidden: boolean,
  blocked: Iterable<string>,
): Audience {
  const authorId = readId(post.userId);
  if (isWithheld(post.withheld) || authorHidden) return { riders: authorId ? [authorId.toHexString()] : [] };
  return { everyoneBut: [...blocked] };
}
