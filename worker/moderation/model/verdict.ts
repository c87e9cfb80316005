import { readArray, readBoolean, readRecord } from '../../platform/db/stored-values';

/** What the model made of an input: flagged with its categories, clear, or no answer to go by (checked later). */
export type Verdict =
  | { outcome: 'flagged'; categories: string[] }
  | { outcome: 'clear' }
  | { outcome: 'unavailable'; error: string };

/**
 * The verdict in a `/v1/moderations` answer (`{ id, model, results: [{ flagged, categories, category_scores }] }`):
 * flagged when any result is, with every category set true in any of them, sorted; an answer without results reads
 * as no answer, never as clear.
 */
export function readVerdict(body: unknown): Verdict {
  const results = readArray(readRecord(body)?.results).flatMap((result) => {
    const read = readRecord(result);
    return read ? [read] : [];
  });
  if (!results.length) return { outcome: 'unavailable', error: 'the answer holds no results' };
  const flagged = results.filter((result) => readBoolean(result.flagged) === true);
  if (!flagged.length) return { outcome: 'clear' };
  const categories = new Set<string>();
  for (const result of flagged) {
    for (const [name, set] of Object.entries(readRecord(result.categories) ?? {}))
      if (set === true) categories.add(name);
  }
  return { outcome: 'flagged', categories: [...categories].sort() };
}
