// A letter, a digit or a leetspeak symbol standing alone, and what may stand between two of them in a spelled-out word.
const RUN = /(?<![\p{L}\p{N}$@])[\p{L}\p{N}$@](?:[\s._*+~|/\\,'"-]{1,3}[\p{L}\p{N}$@]){2,}(?![\p{L}\p{N}$@])/gu;
const SEPARATORS = /[\s._*+~|/\\,'"-]+/gu;

/**
 * Each run of three or more single characters spelled out with spaces or punctuation ("f u c k", "s.h.i.t"), joined
 * into one word: the matcher reads words, and a spaced word is none to it.
 */
export function spacedLetterRuns(text: string): string[] {
  return Array.from(text.matchAll(RUN)).flatMap(([run]) => {
    const word = run.replace(SEPARATORS, '');
    // "a" and "I" are words of their own: "you're a b a d w o r d" spells the word after the article too.
    return /^[ai]\s/i.test(run) ? [word, word.slice(1)] : [word];
  });
}
