// Sentences of a reply: the persona's register (1 to 3 short sentences) and the stage demo's structure both count them.

/** The sentences of a text, each with its end punctuation; text without one is a sentence too. */
export function splitSentences(text: string): string[] {
  // A sentence starts only after punctuation or at the start: one that fails from a run's start fails inside it too.
  return (text.replace(/\s+/g, ' ').match(/(?<![^.!?])(?:[^.!?]+[.!?]+(?=\s|$)|[^.!?]+$)/g) ?? [])
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** The first `max` sentences, so a chatty model still speaks in the persona's register. */
export function clampSentences(text: string, max: number): string {
  return splitSentences(text).slice(0, max).join(' ');
}
