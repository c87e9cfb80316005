import type { ObjectId } from 'mongodb';
import { WITHHELD_REASONS, type Withheld } from '../../../moderation/documents';
import { distinctIds } from '../../../platform/db/distinct-ids';
import { anyIdOf } from '../../../platform/db/id-match';
import type { Store } from '../../../platform/db/store';
import { readArray, readDate, readId, readOneOf, readRecord, readString } from '../../../platform/db/stored-values';
import type { ReportTargetType } from '../../documents';
import { type TargetContent, targetKey } from './item';

// What the queue shows of a reported target: its content, its author and its hold, read from the target's own
// collection as stored (any field may be missing on older documents).

const readWithheld = (value: unknown): Withheld | undefined => {
  const stored = readRecord(value);
  const reason = readOneOf(stored?.reason, WITHHELD_REASONS);
  const at = readDate(stored?.at);
  return reason && at ? { reason, at } : undefined;
};

const readMedia = (value: unknown) =>
  readArray(value).flatMap((item) => {
    const stored = readRecord(item);
    const type = readOneOf(stored?.type, ['image', 'video'] as const);
    const url = readString(stored?.url);
    return type && url ? [{ type, url }] : [];
  });

function readContent(type: ReportTargetType, doc: Record<string, unknown>): TargetContent {
  const withheld = readWithheld(doc.withheld);
  const text = readString(doc.text);
  const name = readString(doc.name);
  const authorId = type === 'user' ? readId(doc._id) : readId(doc.userId);
  const postId = readId(doc.postId);
  return {
    ...(authorId ? { authorId } : {}),
    ...(postId ? { postId } : {}),
    ...(text !== undefined && type !== 'user' ? { text } : {}),
    media: type === 'post' ? readMedia(doc.media) : [],
    ...(name !== undefined && type === 'user' ? { name } : {}),
    ...(withheld ? { withheld } : {}),
  };
}

const PROJECTIONS = {
  post: { userId: 1, text: 1, media: 1, withheld: 1 },
  comment: { userId: 1, postId: 1, text: 1, withheld: 1 },
  user: { name: 1, withheld: 1 },
} as const;

function findTargets(store: Store, type: ReportTargetType, ids: ObjectId[]) {
  const filter = { _id: anyIdOf(...ids) };
  const projection = PROJECTIONS[type];
  if (type === 'post') return store.feed_posts.find(filter, { projection }).toArray();
  if (type === 'comment') return store.feed_comments.find(filter, { projection }).toArray();
  return store.users.find(filter, { projection }).toArray();
}

/** The content of these targets, keyed `type:hexId`; targets since deleted are absent. */
export async function contentOf(
  store: Store,
  targets: { type: ReportTargetType; id: ObjectId }[],
): Promise<Map<string, TargetContent>> {
  const found = new Map<string, TargetContent>();
  await Promise.all(
    (['post', 'comment', 'user'] as const).map(async (type) => {
      const ids = distinctIds(targets.filter((target) => target.type === type).map((target) => target.id));
      if (!ids.length) return;
      for (const doc of await findTargets(store, type, ids)) {
        const id = readId(doc._id);
        if (id) found.set(targetKey(type, id), readContent(type, doc as Record<string, unknown>));
      }
    }),
  );
  return found;
}

/** Whom a target is by (a reported rider is their own author) and, for a comment, its post; null when it is gone. */
export async function authorOf(
  store: Store,
  type: ReportTargetType,
  id: ObjectId,
): Promise<{ userId?: ObjectId; postId?: ObjectId } | null> {
  if (type === 'user') return { userId: id };
  const filter = { _id: anyIdOf(id) };
  const doc =
    type === 'post'
      ? await store.feed_posts.findOne(filter, { projection: { userId: 1 } })
      : await store.feed_comments.findOne(filter, { projection: { userId: 1, postId: 1 } });
  if (!doc) return null;
  const stored = doc as Record<string, unknown>;
  const userId = readId(stored.userId);
  const postId = readId(stored.postId);
  return { ...(userId ? { userId } : {}), ...(postId ? { postId } : {}) };
}
