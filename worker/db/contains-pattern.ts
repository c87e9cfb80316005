/** Text a client typed, as a regex that matches it literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive "contains" match for free text a client typed: its regex characters match themselves. */
export function containsPattern(text: string): RegExp {
  return new RegExp(escapeRegex(text), 'i');
}
