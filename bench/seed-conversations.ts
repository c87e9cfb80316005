// Two-rider conversations as the message benches seed them: riders as the old service stored accounts, each
// conversation as the project stores one, and a token per rider that the project's Worker, the minimal Worker and
// the Node server all accept (the project's signing).
import { type Db, ObjectId } from 'mongodb';
import { claimsFor, signSessionToken } from '../worker/platform/tokens/token.js';

/** A seeded conversation: its id, and its two riders' tokens (the first the sender's in the benches). */
export interface SeededConversation {
  conversation: ObjectId;
  tokens: [string, string];
}

export async function seedConversations(db: Db, count: number, jwtSecret: string): Promise<SeededConversation[]> {
  const now = new Date();
  const riders = Array.from({ length: count * 2 }, (_, i) => ({
    _id: new ObjectId(),
    name: `Bench Rider ${i}`,
    email: `bench-${new ObjectId().toHexString()}@bench.test`,
    role: null,
    createdAt: now,
    updatedAt: now,
  }));
  await db.collection('users').insertMany(riders);
  const docs = Array.from({ length: count }, (_, i) => {
    const participantIds = [riders[2 * i]!._id, riders[2 * i + 1]!._id];
    return {
      _id: new ObjectId(),
      participantIds,
      participantKey: participantIds
        .map((id) => id.toHexString())
        .sort()
        .join('-'),
      lastActivityAt: now,
      lastMessageId: null,
      readMarkers: participantIds.map((userId) => ({ userId, messageId: null, readAt: now })),
      createdAt: now,
      updatedAt: now,
    };
  });
  await db.collection('conversations').insertMany(docs);
  const tokens = await Promise.all(riders.map((rider) => signSessionToken(claimsFor(rider), jwtSecret)));
  return docs.map((doc, i) => ({ conversation: doc._id, tokens: [tokens[2 * i]!, tokens[2 * i + 1]!] }));
}
