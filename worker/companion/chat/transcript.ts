import { ObjectId } from 'mongodb';
import { anyIdOf } from '../../platform/db/id-match';
import type { Store } from '../../platform/db/store';
import { readEach } from '../../platform/db/stored-values';
import { LIMITS } from '../../platform/limits';
import type { ChatMessageDoc, CompanionDirectMessageDoc } from '../documents';
import { readCompanionChatRow } from '../stored';
import type { MemoryRow } from './memory';

// Every query on the companion's two message stores: dm_messages (web DM, its companion rows only) and bot_chats (mobile chat and stage).

/** Where a chat came from: the web DM route or the mobile bot-chat route. */
export type Surface = 'dm' | 'bot';

// The Store's dm_messages accessor is typed for conversation messages (worker/social/messages/); the companion's rows have their own shape.
const companionDms = (store: Store) => store.db.collection<CompanionDirectMessageDoc>('dm_messages');

/** Stores one line of the chat, the rider's or the companion's, on the surface it was said on. */
export async function storeChatMessage(
  store: Store,
  surface: Surface,
  userId: ObjectId,
  role: 'user' | 'assistant',
  text: string,
): Promise<ChatMessageDoc> {
  const now = new Date();
  const row: ChatMessageDoc = { _id: new ObjectId(), userId, role, text, createdAt: now, updatedAt: now };
  if (surface === 'dm') await companionDms(store).insertOne({ ...row, companion: true });
  else await store.bot_chats.insertOne(row);
  return row;
}

/** The newest rows of each store for the rider, as the memory rule (worker/companion/chat/memory.ts) takes them. */
export async function recentChatRows(store: Store, userId: ObjectId): Promise<{ dm: MemoryRow[]; bot: MemoryRow[] }> {
  const projection = { _id: 1, userId: 1, role: 1, text: 1, createdAt: 1 } as const;
  const sort = { createdAt: -1, _id: -1 } as const;
  const limit = LIMITS.companion.memoryPerStore;
  // Rows stored with the rider's id as a hex string are theirs too; a row with nothing to remember is left out.
  const [dm, bot] = await Promise.all([
    companionDms(store)
      .find({ userId: anyIdOf(userId), companion: true }, { projection, sort, limit })
      .toArray(),
    store.bot_chats.find({ userId: anyIdOf(userId) }, { projection, sort, limit }).toArray(),
  ]);
  return {
    dm: readEach('dm_messages', dm, readCompanionChatRow),
    bot: readEach('bot_chats', bot, readCompanionChatRow),
  };
}
