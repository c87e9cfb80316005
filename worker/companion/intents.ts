import { LIMITS } from '../limits';
import type { SPORTS } from '../taxonomies';
import type { Mood } from './profile';
import type { EventWindow } from './tools/events';

// Plain-language reading of a rider's message: the offline companion's intents and the mood a turn records.

/** A tool the offline companion calls for a message, with its arguments. */
export interface PlainIntent {
  tool: string;
  args: Record<string, unknown>;
}

const PHRASE = '([^?.!,;]+?)';
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

function eventWindowOf(message: string): EventWindow {
  if (/\bweekend\b/i.test(message)) return 'this-weekend';
  if (/\b(today|tonight)\b/i.test(message)) return 'today';
  if (/\b(this|next) week\b/i.test(message)) return 'next-7-days';
  return 'next-30-days';
}

const clean = (text: string) => text.trim().replace(/\s+/g, ' ');

/** What a message plainly asks for ("spots near Berlin", "events this weekend", "add kickflip to my list", "what is a heelflip"), or null. */
export function plainIntent(message: string): PlainIntent | null {
  const add = new RegExp(
    String.raw`\badd\s+(?:a\s+|an\s+|the\s+)?${PHRASE}\s+to\s+my\s+(?:trick\s*)?lists?\b`,
    'i',
  ).exec(message);
  if (add) return { tool: 'add_trick_to_list', args: { trick: clean(add[1]!) } };
  const spots = new RegExp(
    String.raw`\b(?:spots?|parks?|places to (?:ride|skate))\s+(?:near|in|around|at)\s+${PHRASE}${END}`,
    'i',
  ).exec(message);
  if (spots) return { tool: 'search_spots', args: { place: clean(spots[1]!) } };
  if (/\b(events?|comps?|contests?|competitions?|jams?|demos)\b/i.test(message)) {
    const place = new RegExp(String.raw`\b(?:in|near|around)\s+${PHRASE}${END}`, 'i').exec(message);
    return {
      tool: 'search_events',
      args: { when: eventWindowOf(message), ...(place ? { place: clean(place[1]!) } : {}) },
    };
  }
  const lookup = new RegExp(String.raw`\bwhat(?:'s| is)\s+(?:a|an|the)\s+${PHRASE}${END}`, 'i').exec(message);
  if (lookup) return { tool: 'lookup_trick', args: { name: clean(lookup[1]!) } };
  if (/\b(my tricks|my trick lists?|my lists?|on my list)\b/i.test(message))
    return { tool: 'list_my_tricks', args: {} };
  const name = /\b(?:my name is|call me)\s+([a-z][\w'-]{0,40})/i.exec(message);
  if (name) return { tool: 'remember_fact', args: { fact: name[1], kind: 'name' } };
  const sport = /\bi (?:ride|skate|snowboard|do)\s*(\w+)?/i.exec(message);
  const sportName =
    sport && (SPORT_WORDS[(sport[1] ?? '').toLowerCase()] ?? (/skate/i.test(sport[0]) ? 'skateboarding' : undefined));
  if (sportName) return { tool: 'remember_fact', args: { fact: sportName, kind: 'sport' } };
  const fact = new RegExp(String.raw`\bremember (?:that )?${PHRASE}${END}`, 'i').exec(message);
  if (fact) return { tool: 'remember_fact', args: { fact: clean(fact[1]!) } };
  return null;
}

const MOODS: [Mood, RegExp][] = [
  ['frustrated', /\b(can'?t|cannot|frustrat\w*|annoy\w*|ugh|slammed|bailed|hate|stuck)\b/i],
  ['nervous', /\b(nervous|scared|afraid|sketchy|worried|scary)\b/i],
  ['tired', /\b(tired|exhausted|sore|beat|knackered)\b/i],
  ['stoked', /\b(stoked|hyped|landed|finally|amazing|sick|let'?s go|rad|pumped)\b/i],
];

/** The mood a message shows, by plain keywords; most messages are neutral. */
export function moodOf(message: string): Mood {
  return MOODS.find(([, pattern]) => pattern.test(message))?.[0] ?? 'neutral';
}

/**
 * Whether a turn is a substantive coaching interaction (the interface spec's meaningful actions): the rider
 * asked or told something of substance, or the companion looked something up for them. Greetings,
 * thanks and one-word replies are conversation, not coaching.
 */
export function isSubstantiveTurn(message: string, toolCalls: number): boolean {
  const words = message.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  return toolCalls > 0 || words.length >= LIMITS.companion.substantiveWordsMin;
}
