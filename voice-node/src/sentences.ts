// One reply becomes one turn per sentence (the interface spec, Voice WebSocket): clients map the
// index of each assistant turn_start to a stage timeline, so the split must follow the writer's sentences.

/** Abbreviations whose period does not end a sentence. */
const ABBREVIATIONS = /(?:^|\s)(?:mr|mrs|ms|dr|st|vs|etc|e\.g|i\.e|approx|min|max|no)\.$/i;

/**
 * Sentences of a cleaned reply: split after `.`, `!`, `?` or `…` followed by a space, and at line
 * breaks. A piece with no letter or digit (a lone "!") is dropped, since it has nothing to say.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\n+/)) {
    let current = '';
    const pieces = line.split(/(?<=[.!?…]["')\]]?)\s+/);
    for (const piece of pieces) {
      current = current ? `${current} ${piece}` : piece;
      if (ABBREVIATIONS.test(current)) continue;
      sentences.push(current);
      current = '';
    }
    if (current) sentences.push(current);
  }
  return sentences.map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
}
