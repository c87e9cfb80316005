import { LIMITS } from '../../platform/limits';
import { readable } from './intents';
import { splitSentences } from './sentences';

// Stage demonstrations (the interface spec, Voice WebSocket): clients map sentence index to the
// demo timeline, so the structure is checked here and rebuilt when a model breaks it.

/** The phases in timeline order; each gets one imperative sentence using its keyword. */
export const DEMO_PHASES = ['wind up', 'pop', 'spin', 'land'] as const;

/** Sentence count of a demo: opener, `watch this`, one per phase, sign-off. */
export const DEMO_SENTENCES = 2 + DEMO_PHASES.length + 1;

/** Longest sentence of a demo, in words: each one plays against a short stretch of animation. */
const SENTENCE_WORDS_MAX = 16;

const TRICK_WORDS = "([a-z0-9][a-z0-9' -]{0,38}?[a-z0-9])";
// Each run of spaces must be followed by a word: giving back one of its spaces could only reach the word again.
const ASK =
  /\b(?:show me|demo|demonstrate|can you do|could you do|do)\s+(?=\S)(?:me\s+(?=\S))?(?:how to do\s+(?=\S)|how to\s+(?=\S))?(?:a|an|the|your|that)?\s*/i;
// The spaces after a trick are read once, whole (the captured run is matched back, so never given back).
const TRICK_END = String.raw`(?=(?=(?<run>\s*))\k<run>(?:[.!?,]|$|(?<=\s)(?:for|please|again|now|real|on)\b))`;
const ASKS = new RegExp(ASK.source, 'gi');
const DEMO_ASK_AT = new RegExp(`${ASK.source}${TRICK_WORDS}${TRICK_END}`, 'iy');

/**
 * The trick a message asks to see demonstrated ("show me a kickflip"), or null. Each ask ("show me", "do", …) is
 * read up to a trick name's length past it, so only the first few are: "do do do …" would cost that many reads.
 * An ask found inside another ("do" in "can you do") reads on as that one did, so asks are taken end to end.
 */
export function demoRequest(message: string): string | null {
  const text = readable(message);
  ASKS.lastIndex = 0;
  for (let asks = 0; asks < LIMITS.companion.demoAsksMax; asks++) {
    const ask = ASKS.exec(text);
    if (!ask) return null;
    DEMO_ASK_AT.lastIndex = ask.index;
    const match = DEMO_ASK_AT.exec(text);
    if (!match) continue;
    const trick = match[1]!.trim().toLowerCase();
    return /^(you|it|this|that|something|anything|everything|what|me|my)\b/.test(trick) ? null : trick;
  }
  return null;
}

const has = (sentence: string, phrase: string) => new RegExp(`\\b${phrase}\\b`, 'i').test(sentence);
// A sentence opening with one of these is a statement, not an order.
const NOT_IMPERATIVE = /^(i|i'm|i'll|you|you're|we|we're|it|it's|this|that|the|a|an|my|he|she|they)\b/i;

/** Whether a reply has the demo structure: flat opener, `watch this`, one order per phase in order, dry sign-off. */
export function isDemoReply(reply: string): boolean {
  const sentences = splitSentences(reply);
  if (sentences.length !== DEMO_SENTENCES) return false;
  if (sentences.some((sentence) => sentence.split(' ').length > SENTENCE_WORDS_MAX)) return false;
  const [opener, watch, ...rest] = sentences as [string, string, ...string[]];
  const signOff = rest[rest.length - 1]!;
  const flat = (sentence: string) => !/[!?]/.test(sentence) && !has(sentence, 'watch this');
  if (!flat(opener) || !flat(signOff) || !has(watch, 'watch this')) return false;
  return DEMO_PHASES.every((phase, i) => {
    const sentence = rest[i]!;
    return has(sentence, phase) && !NOT_IMPERATIVE.test(sentence) && !has(sentence, 'watch this');
  });
}

/** A demo in the fixed structure, for when the model's reply breaks it (and the offline companion). */
export function demoTemplate(trick: string): string {
  return [
    `Alright, one ${trick} coming up.`,
    'Watch this.',
    'Wind up your shoulders and crouch low.',
    'Pop the tail hard.',
    'Spin the board with a light flick.',
    'Land with your feet over the bolts.',
    'Nothing to it, really.',
  ].join(' ');
}

/** The reply a stage demo speaks: the model's when it keeps the structure, else the template. */
export function enforceDemo(reply: string, trick: string): { text: string; rebuilt: boolean } {
  const text = splitSentences(reply).join(' ');
  return isDemoReply(text) ? { text, rebuilt: false } : { text: demoTemplate(trick), rebuilt: true };
}
