// Stretched letters ("sooo", "coool", "yeeesss"): every run of 3+ of one letter becomes 2, then each
// run may shrink to 1; the first spelling found in WORDS wins, preferring more doubled letters, so
// "coool" is "cool" (never "col") and "sooo" is "so". A word with no known spelling keeps its doubles.

/**
 * Words a rider friend stretches. Only words that can be stretched need to be here, and both
 * spellings are judged by it: a double-letter word ("cool", "good") wins over its 1-letter form.
 */
export const WORDS: ReadonlySet<string> = new Set(
  `a ah aw all also amazing and any anyway are awesome aww bad beautiful best big bomb boo bored boss bro brother
  but bye call can clean come cool crazy cute damn dang day did do done dope down dude easy epic even ever every
  fast feel fine flow for free fresh fun funny gnarly go god gone good gosh got great guess ha hah haha hard
  have he hell hello help her here hey hi high hmm ho huge huh hurry hype i in is it joke just keep kill kind land
  later let like lit little long look lot love mad man many maybe me mean mine miss more much my need never nice
  nine no nope not now nuts of off oh ok okay omg on one oof ooh oops or out please pop pretty psyched pumped rad
  ready real really right rip run sad see seen she shred sick slow smooth so soon sorry speed spin steep still stoked
  stop straight style super sure sweet swell tall thanks that the then there they this three too totally tree true
  tight try two ugh um up us very wait want way we week well what wheel when where whoa who why wild win with woo
  woah woohoo wow ya yay yeah yep yes yo you yum zoom`
    .split(/\s+/)
    .filter(Boolean),
);

/** Runs of one letter repeated 3 or more times. */
const STRETCH = /(\p{L})\1{2,}/iu;
// More than this many runs in one word: keep every run doubled rather than try 2^n spellings.
const MAX_RUNS = 4;

function spellings(word: string): string[] {
  const parts = word.split(/((\p{L})\2{2,})/iu).filter((_, i) => i % 3 !== 2);
  const runs = parts.filter((_, i) => i % 2 === 1);
  if (runs.length > MAX_RUNS) return [parts.map((p, i) => (i % 2 ? p.slice(0, 2) : p)).join('')];
  const results: { text: string; doubles: number }[] = [];
  for (let mask = 0; mask < 1 << runs.length; mask++) {
    let run = 0;
    let doubles = 0;
    const text = parts
      .map((part, i) => {
        if (i % 2 === 0) return part;
        const double = (mask >> run++) & 1;
        doubles += double;
        return part.slice(0, double ? 2 : 1);
      })
      .join('');
    results.push({ text, doubles });
  }
  return results.sort((a, b) => b.doubles - a.doubles).map((r) => r.text);
}

/** One word with its stretched runs collapsed (see the comment at the top of this file). */
export function collapseStretchedWord(word: string): string {
  if (!STRETCH.test(word)) return word;
  const candidates = spellings(word);
  return candidates.find((candidate) => WORDS.has(candidate.toLowerCase())) ?? candidates[0]!;
}

/** Every word of a text with its stretched runs collapsed. */
export function collapseStretchedLetters(text: string): string {
  return text.replace(/\p{L}+/gu, collapseStretchedWord);
}
