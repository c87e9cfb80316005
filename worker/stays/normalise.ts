/**
 * Text folded for comparison: accents removed, lower-cased, trimmed, inner whitespace collapsed.
 * "  Hôtel  du Lac " and "hotel du lac" fold to the same key.
 */
export function foldKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/g, ' ');
}

/** The place fields a stay shares with its spot (interface spec: consistent with the spot). */
export const PLACE_FIELDS = ['city', 'state', 'country'] as const;
type Place = Partial<Record<(typeof PLACE_FIELDS)[number], string>>;

/**
 * The place fields on which the stay contradicts its spot. Only fields both know are compared,
 * folded as `foldKey` does, so "münchen " matches "München" and an unknown side never conflicts.
 */
export function placeMismatches(stay: Place, spot: Place): (typeof PLACE_FIELDS)[number][] {
  return PLACE_FIELDS.filter((field) => {
    const [mine, theirs] = [stay[field]?.trim(), spot[field]?.trim()];
    return Boolean(mine && theirs) && foldKey(mine!) !== foldKey(theirs!);
  });
}

/** An http(s) URL in its normalised form (`new URL().href`), or undefined for anything else. */
export function httpUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Escapes text for use inside a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
