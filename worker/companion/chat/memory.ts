import type { ObjectId } from 'mongodb';
import { LIMITS } from '../../platform/limits';
import type { CompanionChatRow } from '../stored';

/** A stored chat row as the memory rule reads it, from either store (worker/companion/stored.ts reads it). */
export type MemoryRow = CompanionChatRow;

export interface MemoryTurn {
  role: 'user' | 'assistant';
  text: string;
}

type Sourced = MemoryRow & { store: 0 | 1 };

/** Oldest first; equal times by id, then the DM store before the chat store, so ties always fall the same way. */
function byTime(a: Sourced, b: Sourced): number {
  return (
    a.createdAt.getTime() - b.createdAt.getTime() ||
    a._id.toHexString().localeCompare(b._id.toHexString()) ||
    a.store - b.store
  );
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The companion's memory (the interface spec, Limits): the newest `memoryPerStore` rows of each
 * store for this rider, merged by time, trimmed to the newest `memoryMax`, then de-duplicated
 * against the current prompt, in that order. The caller stored the prompt first, so its own row
 * goes (by id); so does any earlier rider row with the same text, because the prompt is appended
 * once after the memory and a repeated question adds nothing. Rows of any other rider never pass.
 */
export function mergeCompanionMemory(input: {
  userId: ObjectId;
  dm: MemoryRow[];
  bot: MemoryRow[];
  prompt: { id?: ObjectId; text: string };
}): MemoryTurn[] {
  const { memoryPerStore, memoryMax } = LIMITS.companion;
  const newest = (rows: MemoryRow[], store: 0 | 1): Sourced[] =>
    rows
      .filter((row) => row.userId.equals(input.userId))
      .map((row) => ({ ...row, store }))
      .sort((a, b) => byTime(b, a))
      .slice(0, memoryPerStore);
  const merged = [...newest(input.dm, 0), ...newest(input.bot, 1)].sort(byTime).slice(-memoryMax);
  const { id, text } = input.prompt;
  return merged
    .filter((row) => !(id && row._id.equals(id)) && !(row.role === 'user' && sameText(row.text, text)))
    .map((row) => ({ role: row.role, text: row.text }));
}
