/**
 * A name as search compares it: lower-cased, accents stripped (NFD, then the combining marks dropped), cut into
 * words of letters and digits. Stored on the account as `nameWords`, so rider search is a prefix match on an index.
 */
export function nameWords(name: string): string[] {
  const words = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [...new Set(words)];
}

/** What an account update stores beside a new name: its words, kept in step on every write of `name`. */
export const withNameWords = <T extends { name?: string }>(changes: T): T & { nameWords?: string[] } =>
  changes.name === undefined ? changes : { ...changes, nameWords: nameWords(changes.name) };
