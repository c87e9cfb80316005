import { inSecondPerson } from '../rider-words';
// How the offline companion says what a tool found, one or two short sentences per tool, and what it remembers.

import type { PersonaContext } from './types';

type Row = Record<string, unknown>;

const listOf = (names: string[]) =>
  names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

const WINDOW_TEXT: Record<string, string> = {
  today: 'today',
  'this-weekend': 'this weekend',
  'next-7-days': 'this week',
  'next-30-days': 'in the next month',
};

const day = (iso: unknown) =>
  typeof iso === 'string'
    ? new Date(iso).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })
    : 'a date to be announced';

const PHRASES: Record<string, (result: Row) => string> = {
  search_spots: (result) => {
    const spots = (result.spots as Row[] | undefined) ?? [];
    if (!spots.length) return "I don't know any spots there yet. Add one you ride and I'll remember it.";
    return `Got a few: ${listOf(spots.slice(0, 3).map((spot) => String(spot.name)))}. Which one are we hitting?`;
  },
  search_events: (result) => {
    const events = (result.events as Row[] | undefined) ?? [];
    const when = WINDOW_TEXT[String(result.window)] ?? 'soon';
    if (!events.length) return `Nothing on the calendar ${when}. Good excuse to film a line instead.`;
    const first = events[0]!;
    const where = first.city ? ` in ${first.city}` : first.online ? ' online' : '';
    const more = events.length > 1 ? ` Plus ${events.length - 1} more.` : '';
    return `${first.title ?? 'An event'}${where} on ${day(first.startAt)}.${more}`;
  },
  add_trick_to_list: (result) => `Added ${result.added} to ${result.list}. Go get it.`,
  list_my_tricks: (result) => {
    const lists = (result.lists as { list: string; tricks: Row[] }[] | undefined) ?? [];
    const first = lists.find((list) => list.tricks.length);
    if (!first) return "Your trick lists are empty so far. Name a trick and I'll add it.";
    return `On ${first.list} you've got ${listOf(first.tricks.slice(0, 4).map((trick) => String(trick.name)))}. Which one is next?`;
  },
  lookup_trick: (result) => {
    const entry = ((result.entries as Row[] | undefined) ?? [])[0];
    if (!entry) return "That one isn't in the trickipedia yet.";
    const firstSentence =
      String(entry.description ?? '')
        .match(/[^.!?]+[.!?]?/)?.[0]
        ?.trim() ?? '';
    return `${entry.name}: ${firstSentence}`.trim();
  },
  remember_fact: (result) =>
    result.kind === 'name'
      ? `Got it, ${result.remembered}.`
      : result.kind === 'sport'
        ? `Nice, ${result.remembered} it is.`
        : "Noted, I'll remember that.",
};

/** One tool result in the companion's words; an error result says it plainly. */
export function phraseToolResult(tool: string, content: string): string {
  let result: Row;
  try {
    result = JSON.parse(content) as Row;
  } catch {
    return 'That came back garbled on my end.';
  }
  if (result && typeof result.error === 'string') return `That didn't work on my end: ${result.error}.`;
  return PHRASES[tool]?.(result) ?? 'Done.';
}

/** Facts a recollection names: the newest few, so it stays within the reply's sentences. */
const RECALLED_FACTS = 3;

/** What the offline companion says it remembers of the rider: their name, sports and newest facts, in 1 to 3 sentences. */
export function recollection(persona: Pick<PersonaContext, 'name' | 'sports' | 'facts'>): string {
  const facts = persona.facts.slice(-RECALLED_FACTS).reverse();
  const lines = [
    persona.name ? `You're ${persona.name}` : '',
    persona.sports.length ? `you ride ${listOf(persona.sports)}` : '',
    facts.length ? `you told me ${listOf(facts.map((fact) => inSecondPerson(fact.replace(/[.!?\s]+$/, ''))))}` : '',
  ].filter(Boolean);
  if (!lines.length) return "I don't know much about you yet. Tell me your name or what you ride and I'll remember it.";
  const said = lines.join(', ');
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
}
