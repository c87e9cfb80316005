import { DataSet, englishDataset, englishRecommendedTransformers, parseRawPattern, RegExpMatcher } from 'obscenity';
import { BUILT_IN_ALLOWED } from './built-in-terms';
import { listedPatternWindows } from './prescreen';
import { spacedLetterRuns } from './spaced-letters';

/** How an admin's term is matched: only as a whole word ("kook" but not "kooky"), or also inside other words. */
export const TERM_MATCHES = ['word', 'part'] as const;
export type TermMatch = (typeof TERM_MATCHES)[number];

/** A term admins added: refused (`block`), or let through where the built-in list would refuse it (`allow`). */
export const TERM_KINDS = ['block', 'allow'] as const;
export type TermKind = (typeof TERM_KINDS)[number];

export interface FilterTerm {
  term: string;
  kind: TermKind;
  match: TermMatch;
}

/** Answers whether a text holds a refused word; built once per term list, then used for every text. */
export interface WordFilter {
  matches(text: string): boolean;
}

/**
 * A term as admins type it, as it is stored and compared: lower case, spaces collapsed, and only what the pattern
 * language reads as letters (its `[`, `]`, `?`, `|` and `\` would change what the term means).
 */
export function normalizeTerm(term: string): string {
  return term
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[[\]?|\\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// How many of one letter in a row the English transformers keep (obscenity's englishRecommendedBlacklistMatcherTransformers):
// a pattern must be written as the text reads once they ran, or "wazzock" would never meet the "wazock" they make of it.
const KEPT_REPEATS: Readonly<Record<string, number>> = { b: 2, e: 2, o: 2, l: 2, s: 2, g: 2 };

/** A term as the matcher reads text: each letter repeated no more than the transformers keep. */
export function collapsedAsMatched(term: string): string {
  return term.replace(/(.)\1+/g, (run, letter: string) =>
    letter.repeat(Math.min(run.length, KEPT_REPEATS[letter] ?? 1)),
  );
}

function patternOf(term: FilterTerm) {
  const text = collapsedAsMatched(term.term);
  return parseRawPattern(term.match === 'word' ? `|${text}|` : text);
}

/**
 * The English list of obscenity (its leetspeak, look-alike and repeated-letter transformers), the built-in allowed
 * words and the admins' terms, with a pass over letters spelled out one by one.
 */
export function buildWordFilter(terms: readonly FilterTerm[]): WordFilter {
  const dataset = new DataSet<{ originalWord: string }>().addAll(englishDataset);
  for (const term of terms) {
    if (term.kind !== 'block' || !term.term) continue;
    dataset.addPhrase((phrase) => phrase.setMetadata({ originalWord: term.term }).addPattern(patternOf(term)));
  }
  const built = dataset.build();
  const allowed = terms.filter((term) => term.kind === 'allow' && term.term).map((term) => term.term);
  const matcher = new RegExpMatcher({
    ...built,
    whitelistedTerms: [...(built.whitelistedTerms ?? []), ...BUILT_IN_ALLOWED, ...allowed],
    ...englishRecommendedTransformers,
  });
  const windowsOf = listedPatternWindows(built.blacklistedTerms);
  const matches = (raw: string) => {
    const text = withoutCodes(raw);
    return windowsOf(text).some(({ text: part, from, to }) =>
      from === 0 && to === part.length
        ? matcher.hasMatch(part)
        : matcher.getAllMatches(part).some((match) => match.startIndex >= from && match.endIndex < to),
    );
  };
  return { matches: (text) => matches(text) || spacedLetterRuns(text).some(matches) };
}

/** Only hex characters: with a digit among eight or more of them, the shape of an id. */
const HEX = /^[0-9a-f]+$/i;

/** A word of letters and digits standing alone: what a rider writes, as opposed to the text around it. */
const TOKEN = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?![\p{L}\p{N}])/gu;

/**
 * Blanks the numbers and codes in a text, keeping every other character where it was: leetspeak reads digits as
 * letters, so a street's number ("Route 455"), a year or a score read as words ("455" as "ass"), and so did ids and
 * codes riders paste (a spot's "a55f9a08", "fa62eabe"). A number alone, a word of eight or more characters holding
 * three or more digits, or one of eight or more hex characters holding any digit (an id), is never a disguised word;
 * "a55", "sh1t" and "b00bs" still are.
 */
export function withoutCodes(text: string): string {
  return text.replace(TOKEN, (token) => {
    const digits = token.replace(/\P{N}/gu, '').length;
    const long = token.length >= 8;
    const code = digits === token.length || (long && digits >= 3) || (long && digits > 0 && HEX.test(token));
    return code ? ' '.repeat(token.length) : token;
  });
}
