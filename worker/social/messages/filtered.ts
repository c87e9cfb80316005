import type { ObjectId } from 'mongodb';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { readId } from '../../platform/db/stored-values';
import { followedAmong } from '../follows/service';
import type { DirectMessage } from '../stored-messaging';

// A direct message is never refused for its words (it is private), but one that matched the word filter is shown
// folded to a reader who does not follow its sender. Whether a reader follows is read only for such messages.

/** Hex ids of the riders among `readerIds` who follow `senderId`. */
export async function followersAmong(store: Store, senderId: ObjectId, readerIds: ObjectId[]): Promise<Set<string>> {
  if (!readerIds.length) return new Set();
  const rows = await store.follows
    .find(
      { followedId: anyIdOf(senderId), followerId: anyIdOf(...readerIds) },
      { projection: { _id: 0, followerId: 1 } },
    )
    .toArray();
  return new Set(rows.flatMap((row) => readId(row.followerId)?.toHexString() ?? []));
}

/** The ids, among `messages`, of those `readerId` sees folded: matched, from a rider other than the reader not followed. */
export async function foldedFor(store: Store, readerId: ObjectId, messages: DirectMessage[]): Promise<Set<string>> {
  const matched = messages.filter((message) => message.filtered && message.userId && !message.userId.equals(readerId));
  if (!matched.length) return new Set();
  const followed = await followedAmong(
    store,
    readerId,
    matched.map((message) => message.userId!),
  );
  return new Set(
    matched
      .filter((message) => !followed.has(message.userId!.toHexString()))
      .map((message) => message._id.toHexString()),
  );
}
