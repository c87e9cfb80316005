import { LIMITS } from '../../platform/limits';
import type { SPORTS } from '../../platform/sports';
import type { Mood } from './profile';
import type { EventWindow } from './tools/events';

// Plain-language reading of a rider's message: the offline companion's intents and the mood a turn records.

/** A tool the offline companion calls for a message, with its arguments. */
export interface PlainIntent {
  tool: string;
  args: Record<string, unknown>;
}

// A phrase ends on a character that is neither space nor punctuation: what follows it is tested once per run of spaces.
const PHRASE = String.raw`([^?.!,;]*?[^?.!,;\s])`;
// The spaces before a phrase are followed by one of its characters: giving one of them back fails at once.
const BEFORE_PHRASE = String.raw`\s+(?=[^?.!,;\s])`;
const END = String.raw`\s*(?:[?.!,;]|$|\bplease\b|\bthis weekend\b|\btoday\b|\bfor\b)`;
const SPORT_WORDS: Record<string, (typeof SPORTS)[number]> = {
  skate: 'skateboarding',
  skateboard: 'skateboarding',
  skateboarding: 'skateboarding',
  snowboard: 'snowboarding',
  snowboarding: 'snowboarding',
  bmx: 'bmx',
  wakeboard: 'wakeboarding',
  wakeboarding: 'wakeboarding',
};

const ADD_AT = new RegExp(
  String.raw`\badd${BEFORE_PHRASE}(?:(?:a|an|the)${BEFORE_PHRASE})?${PHRASE}\s+to\s+my\s+(?:trick\s*)?lists?\b`,
  'iy',
);
const ADD_START = /\badd\s+(?=[^?.!,;\s])/gi;
const CLAUSE_END = /[?.!,;]/g;
const SPOTS = new RegExp(
  String.raw`\b(?:spots?|parks?|places to (?:ride|skate))\s+(?:near|in|around|at)${BEFORE_PHRASE}${PHRASE}${END}`,
  'i',
);
const EVENTS = /\b(events?|comps?|contests?|competitions?|jams?|demos)\b/i;
const PLACE = new RegExp(String.raw`\b(?:in|near|around)${BEFORE_PHRASE}${PHRASE}${END}`, 'i');
const LOOKUP = new RegExp(String.raw`\bwhat(?:'s| is)\s+(?:a|an|the)${BEFORE_PHRASE}${PHRASE}${END}`, 'i');
const MY_LIST = /\b(my tricks|my trick lists?|my lists?|on my list)\b/i;
const NAME = /\b(?:my name is|call me)\s+([a-z][\w'-]{0,40})/i;
const SPORT = /\bi (?:ride|skate|snowboard|do)\s*(\w+)?/i;
// An order to remember opens its clause, alone or after a word like "please" or a polite "can you": "I remember …" is
// the rider reminiscing, not an order.
const ORDER_OPENS = String.raw`(?:^|[.!,;]\s*|\b(?:please|pls|and|also|oh|hey|ok|okay|so)\s+|\b(?:can|could|will|would) you\s+(?:please\s+)?)`;
const FACT = new RegExp(`${ORDER_OPENS}(?:remember|don'?t forget|do not forget) (?:that )?${PHRASE}${END}`, 'i');
const ABOUT_ME = String.raw`(?:me|myself|my\b|i\b|i'm\b)`;
// Questions (and orders to tell) about what the companion knows of the rider: answered from memory, never stored.
const RECALL = [
  // "what do you remember (about me)?", "anything you know about me?", "tell me what you remember"
  /\b(?:what|anything|everything)(?:\s+else)?\s+(?:(?:do|did|can|have)\s+)?you\s+(?:still\s+|even\s+|actually\s+|really\s+)?(?:remember(?:ed)?|know|recall(?:ed)?|learned)(?:\s+(?:about|of|on)\s+(?:me|myself)|\s+so far)?\s*(?:[?.!,;]|$|\bplease\b)/i,
  // "do you remember my name?", "do you know what I ride?", "can you recall what I told you?", "do you still remember?"
  new RegExp(
    String.raw`\b(?:do|did|can|could)\s+you\s+(?:still\s+|even\s+|actually\s+)?(?:remember|know|recall)(?:\s+(?:${ABOUT_ME}|(?:who|what|where|when|how|which|whether|if)\s+${ABOUT_ME}|(?:anything|everything)\s+about\s+(?:me|myself))|\s*(?:[?.!]|$))`,
    'i',
  ),
  /\bwhat(?:'s|\s+is)\s+my\s+(?:name|sport)\b/i,
  /\bwho\s+am\s+i\b/i,
  /\bwhat\s+do\s+i\s+(?:ride|skate)\b/i,
  /\bwhat\s+(?:did\s+i\s+tell|have\s+i\s+told)\s+you\b/i,
  // A "remember …?" question that is no polite order ("remember me?", "remember about me?").
  /(?<!\b(?:can|could|will|would)\s+you\s+(?:please\s+)?)\bremember\b[^?.!]*\?/i,
];

/** What the patterns read of a message: its start, so a long message costs no more than a short one. */
export const readable = (message: string) => message.slice(0, LIMITS.companion.readCharsMax);
// No intent pattern tells two spaces from more, and each one more is a step more to give back: long runs keep two.
const LONG_RUN = /(\s\s)\s{8,}/g;

/**
 * The trick of "add … to my list": the first "add" of a clause matches whenever a later one of the same clause
 * would, so each clause is tried once, from its first "add", instead of from every "add" in it.
 */
function trickToAdd(text: string): string | undefined {
  ADD_START.lastIndex = 0;
  for (let start = ADD_START.exec(text); start; start = ADD_START.exec(text)) {
    ADD_AT.lastIndex = start.index;
    const match = ADD_AT.exec(text);
    if (match) return match[1];
    CLAUSE_END.lastIndex = start.index;
    if (!CLAUSE_END.exec(text)) return undefined;
    ADD_START.lastIndex = CLAUSE_END.lastIndex;
  }
  return undefined;
}

function eventWindowOf(message: string): EventWindow {
  if (/\bweekend\b/i.test(message)) return 'this-weekend';
  if (/\b(today|tonight)\b/i.test(message)) return 'today';
  if (/\b(this|next) week\b/i.test(message)) return 'next-7-days';
  return 'next-30-days';
}

const clean = (text: string) => text.trim().replace(/\s+/g, ' ');

/**
 * Whether a message asks what the companion knows of the rider ("what do you remember about me?", "what's my
 * name?", "tell me what you know"): the offline companion answers it from the profile (offline-phrases.ts).
 */
export function asksAboutMemory(message: string): boolean {
  const text = readable(message).replace(LONG_RUN, '$1');
  return RECALL.some((pattern) => pattern.test(text));
}

/**
 * What a message plainly asks for ("spots near Berlin", "events this weekend", "add kickflip to my list", "what is a
 * heelflip", "remember that …"), or null. A question about what the companion remembers asks for no tool, and
 * nothing in it is remembered.
 */
export function plainIntent(message: string): PlainIntent | null {
  const text = readable(message).replace(LONG_RUN, '$1');
  if (asksAboutMemory(message)) return null;
  const trick = trickToAdd(text);
  if (trick !== undefined) return { tool: 'add_trick_to_list', args: { trick: clean(trick) } };
  const spots = SPOTS.exec(text);
  if (spots) return { tool: 'search_spots', args: { place: clean(spots[1]!) } };
  if (EVENTS.test(text)) {
    const place = PLACE.exec(text);
    return {
      tool: 'search_events',
      args: { when: eventWindowOf(text), ...(place ? { place: clean(place[1]!) } : {}) },
    };
  }
  const lookup = LOOKUP.exec(text);
  if (lookup) return { tool: 'lookup_trick', args: { name: clean(lookup[1]!) } };
  if (MY_LIST.test(text)) return { tool: 'list_my_tricks', args: {} };
  const name = NAME.exec(text);
  if (name) return { tool: 'remember_fact', args: { fact: name[1], kind: 'name' } };
  const sport = SPORT.exec(text);
  const sportName =
    sport && (SPORT_WORDS[(sport[1] ?? '').toLowerCase()] ?? (/skate/i.test(sport[0]) ? 'skateboarding' : undefined));
  if (sportName) return { tool: 'remember_fact', args: { fact: sportName, kind: 'sport' } };
  const fact = FACT.exec(text);
  if (fact) return { tool: 'remember_fact', args: { fact: clean(fact[1]!) } };
  return null;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

const MOODS: [Mood, RegExp][] = [
  ['frustrated', /\b(can'?t|cannot|frustrat\w*|annoy\w*|ugh|slammed|bailed|hate|stuck)\b/i],
  ['nervous', /\b(nervous|scared|afraid|sketchy|worried|scary)\b/i],
  ['tired', /\b(tired|exhausted|sore|beat|knackered)\b/i],
  ['stoked', /\b(stoked|hyped|landed|finally|amazing|sick|let'?s go|rad|pumped)\b/i],
];

/** The mood a message shows, by plain keywords; most messages are neutral. */
export function moodOf(message: string): Mood {
  const text = readable(message);
  return MOODS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'neutral';
}

/**
 * Whether a turn is a substantive coaching interaction (the interface spec's meaningful actions): the rider
 * asked or told something of substance, or the companion looked something up for them. Greetings,
 * thanks and one-word replies are conversation, not coaching.
 */
export function isSubstantiveTurn(message: string, toolCalls: number): boolean {
  if (toolCalls > 0) return true;
  const text = readable(message);
  let words = 0;
  WORD.lastIndex = 0;
  while (WORD.test(text)) if (++words >= LIMITS.companion.substantiveWordsMin) return true;
  return false;
}
