/** Text a client typed, as a regex that matches it literally. */
export function escapeRegex(text: string): string {
  return (
    text
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      // A raw NUL in a pattern fails in the driver; `\xHH` means the same character to JavaScript and to PCRE.
      .replace(/\p{Cc}/gu, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
  );
}

/** A case-insensitive "contains" match for free text a client typed: its regex characters match themselves. */
export function containsPattern(text: string): RegExp {
  return new RegExp(escapeRegex(text), 'i');
}
