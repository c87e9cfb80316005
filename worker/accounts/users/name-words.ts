import type { Filter } from 'mongodb';
import { escapeRegex } from '../../platform/db/contains-pattern';
import type { UserDoc } from '../documents';

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

/** What may stand before a word of a name stored without its words (a space, a hyphen, an apostrophe…). */
const WORD_START = `(^|[\\s\\-_.,'"/()&+])`;

/**
 * Accounts with a word of their name starting with each word of `q`: by `nameWords` (any case, accents ignored),
 * or, for accounts older code stored without `nameWords`, by their name itself (any case; accents as typed), so
 * they are found before anyone backfills the field (migrations-notes/legacy-documents-accounts.md).
 */
export function riderNameFilter(q: string): Filter<UserDoc> {
  const words = nameWords(q);
  return {
    $or: [
      { $and: words.map((word) => ({ nameWords: { $regex: `^${escapeRegex(word)}` } })) },
      {
        $and: [
          { nameWords: { $in: [null, []] } },
          ...words.map((word) => ({ name: { $regex: `${WORD_START}${escapeRegex(word)}`, $options: 'i' } })),
        ],
      },
    ],
  } as Filter<UserDoc>;
}
