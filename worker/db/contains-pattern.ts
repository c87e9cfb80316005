/** A case-insensitive "contains" match for free text a client typed: its regex characters match themselves. */
export function containsPattern(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}
