import { normalizeText } from './identity';

// When two listings are the same real event: the same dedupe key, or
// the same UTC day and city with near-identical titles by the one rule below.

/** Words that tell nothing apart: articles, "and" (often written "&"), and a year. */
const NOISE = /\b(the|a|an|and|of|\d{4})\b/g;

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  const squeezed = text.replace(/ /g, '');
  for (let i = 0; i < squeezed.length - 1; i += 1) {
    const gram = squeezed.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** The title as compared: normalized (worker/events/catalog/identity.ts), noise words gone. */
export function comparableTitle(title: string | null | undefined): string {
  return normalizeText(title).replace(NOISE, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Sørensen–Dice coefficient of the comparable titles' letter pairs, from 0 (nothing shared) to 1
 * (the same letters in the same pairs); two empty titles are not similar (0).
 */
export function titleSimilarity(a: string | null | undefined, b: string | null | undefined): number {
  const [x, y] = [comparableTitle(a), comparableTitle(b)];
  if (!x || !y) return 0;
  if (x === y) return 1;
  const [gx, gy] = [bigrams(x), bigrams(y)];
  let shared = 0;
  for (const [gram, count] of gx) shared += Math.min(count, gy.get(gram) ?? 0);
  const total = [...gx.values(), ...gy.values()].reduce((sum, n) => sum + n, 0);
  return total ? (2 * shared) / total : 0;
}

/** At or above this, two titles at the same day and city are one event ("Rock & Roll Bowl Jam" / "Rock and Roll Bowl Jam 2031"). */
export const SAME_EVENT_SIMILARITY = 0.85;

export const isNearIdenticalTitle = (a: string | null | undefined, b: string | null | undefined) =>
  titleSimilarity(a, b) >= SAME_EVENT_SIMILARITY;
