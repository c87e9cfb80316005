import { readTrickipediaEntry, type TrickipediaEntry } from './reader';

/** An entry as everyone sees it (read by worker/riding/trickipedia/reader.ts). */
export function entryView(entry: TrickipediaEntry) {
  return {
    _id: entry._id.toHexString(),
    name: entry.name,
    slug: entry.slug,
    sport: entry.sport,
    category: entry.category,
    description: entry.description,
    ...(entry.difficulty !== undefined ? { difficulty: entry.difficulty } : {}),
    aliases: entry.aliases,
    ...(entry.videoUrl ? { videoUrl: entry.videoUrl } : {}),
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
  };
}

/** A stored entry as everyone sees it, or undefined when it cannot be read at all. */
export const storedEntryView = (stored: unknown) => {
  const entry = readTrickipediaEntry(stored);
  return entry && entryView(entry);
};
