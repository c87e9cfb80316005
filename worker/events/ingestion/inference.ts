import type { EventIntent, EventLevel, EventSport } from '../../platform/sports';

// What connector two infers from an event's title and description (the interface spec,
// "Normalization rules"): kind, BMX inclusion, level and participation intent. Each rule is a
// row: the word pattern and what it means.

const KINDS: [kind: string, pattern: RegExp][] = [
  ['contest', /\b(contests?|competitions?|championships?|qualifiers?|finals|invitational|comp|cup)\b/],
  ['jam', /\bjams?\b/],
  ['race', /\b(race|races|racing)\b/],
  ['clinic', /\b(clinics?|lessons?|workshops?|camps?|coaching)\b/],
  ['demo', /\bdemos?\b/],
  ['premiere', /\b(premieres?|screenings?|film|video)\b/],
  ['festival', /\b(fest|festival)\b/],
  ['session', /\b(sessions?|meet ?ups?|ride days?|open practice)\b/],
];

const DISCIPLINES: [discipline: string, pattern: RegExp][] = [
  ['street', /\bstreet\b/],
  ['park', /\b(park|skatepark)\b/],
  ['bowl', /\bbowls?\b/],
  ['vert', /\bvert\b/],
  ['mini-ramp', /\bmini ?ramps?\b/],
  ['dirt', /\b(dirt|trails)\b/],
  ['flatland', /\bflatland\b/],
  ['downhill', /\bdownhill\b/],
  ['slopestyle', /\bslopestyle\b/],
];

const BMX = /\bbmx\b/;
const SKATE = /\bskate(board|boarding|boarders?|park|rs?)?\b/;
const SNOW = /\b(snowboard(ing)?|ski|skiing|rail jam)\b/;
const INVITE_ONLY = /\b(invite[- ]only|invitation[- ]only|invitational|by invitation|by invite)\b/;
const ENTRY = /\b(register|registration|sign[- ]?ups?|entry fee|entries|riders? wanted|all riders|open to all|enter)\b/;
const IN_PERSON = /\b(spectators?|tickets?|come watch|watch|crowd|fans|admission|bleachers)\b/;
const ONLINE = /\b(live ?streams?|live ?streamed|streamed|broadcasts?|watch online|webcast)\b/;
const COMPETITIVE_KINDS = new Set(['contest', 'jam', 'race']);

export interface Inferred {
  sports: EventSport[];
  eventKinds: string[];
  disciplines: string[];
  level: EventLevel;
  intents: EventIntent[];
}

/** Reads an event's title and description; the source lists skate events, so skateboarding is the default sport. */
export function inferFromText(title: string, description: string | null, isOnline: boolean): Inferred {
  const text = `${title} ${description ?? ''}`.toLowerCase();
  const eventKinds = KINDS.filter(([, pattern]) => pattern.test(text)).map(([kind]) => kind);
  const disciplines = DISCIPLINES.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
  const sports: EventSport[] = [];
  if (SKATE.test(text)) sports.push('skateboarding');
  if (SNOW.test(text)) sports.push('snowboarding');
  if (BMX.test(text)) sports.push('bmx');
  if (!sports.length) sports.push('skateboarding');
  const level: EventLevel = INVITE_ONLY.test(text) ? 'invite-only' : 'open';
  const intents: EventIntent[] = [];
  // An invite-only contest is not one a rider can enter, unless the text invites entries anyway.
  const competitive = eventKinds.some((kind) => COMPETITIVE_KINDS.has(kind));
  if ((competitive && level === 'open') || ENTRY.test(text)) intents.push('compete');
  if (!isOnline && IN_PERSON.test(text)) intents.push('spectate_in_person');
  if (isOnline || ONLINE.test(text)) intents.push('spectate_online');
  return { sports, eventKinds, disciplines, level, intents };
}
