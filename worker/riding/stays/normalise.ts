import { COUNTRY_CODES } from '../../platform/sports';

/**
 * Text folded for comparison: accents removed, lower-cased, trimmed, inner whitespace collapsed.
 * "  Hôtel  du Lac " and "hotel du lac" fold to the same key.
 */
export function foldKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/\s+/g, ' ');
}

// English country names to ISO codes, built once from the runtime's own ICU data.
let countryNames: Map<string, string> | undefined;
function countryByName(folded: string): string | undefined {
  if (!countryNames) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    countryNames = new Map([...COUNTRY_CODES].map((code) => [foldKey(names.of(code) ?? code), code]));
  }
  return countryNames.get(folded);
}

/**
 * A country as a comparable key: spots store ISO 3166-1 alpha-2 codes (worker/riding/spots/schema.ts)
 * while stays, as the Live shape allows, may name the country; "PT", "pt" and "Portugal" agree.
 */
export function countryKey(text: string): string {
  const folded = foldKey(text);
  if (COUNTRY_CODES.has(folded.toUpperCase())) return folded.toUpperCase();
  return countryByName(folded) ?? folded;
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
    if (!mine || !theirs) return false;
    return field === 'country' ? countryKey(mine) !== countryKey(theirs) : foldKey(mine) !== foldKey(theirs);
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
