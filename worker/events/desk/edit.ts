import type { EventDoc } from '../documents';
import { participationOf, positionOf, spectatingOf, type UtcTimes, venueOf } from '../submissions/document';
import type { EditInput } from './schema';

// An admin edit → the $set it makes. Pure. A nested object the event already
// holds is edited field by field (dotted paths: the other fields stay); one it lacks (a Live
// record's null venue) is written whole.

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function nested(set: Loose, field: string, stored: unknown, given: Loose, whole: () => Loose | null) {
  if (!isObject(stored)) {
    set[field] = whole();
    return;
  }
  for (const [key, value] of Object.entries(given)) set[`${field}.${key}`] = value;
}

export function editSet(before: EventDoc, body: EditInput, times: UtcTimes): Loose {
  const set: Loose = {};
  const plain = [
    'title',
    'description',
    'sports',
    'disciplines',
    'eventKinds',
    'intents',
    'level',
    'timeTba',
    'isOnline',
    'status',
  ] as const;
  for (const field of plain) if (body[field] !== undefined) set[field] = body[field];
  for (const field of ['image', 'series', 'resultsUrl'] as const)
    if (body[field] !== undefined) set[field] = body[field];
  if (body.website !== undefined) set.sourceUrl = body.website;
  if (body.timezone !== undefined) set.timezone = body.timezone;
  if (times.startAt !== undefined) set.startAt = times.startAt;
  if (times.endAt !== undefined) set.endAt = times.endAt;
  if (times.schedule !== undefined) set.schedule = times.schedule;
  if (body.venue) {
    // A position given in either form is written in both (positionOf).
    const given: Loose = { ...body.venue, ...positionOf(body.venue) };
    nested(set, 'venue', before.venue, given, () => venueOf(body.venue));
  }
  if (body.organizer) {
    const given = {
      name: body.organizer.name,
      ...(body.organizer.url !== undefined ? { url: body.organizer.url } : {}),
    };
    nested(set, 'organizer', before.organizer, given, () => ({
      name: body.organizer!.name,
      verified: false,
      canonicalId: null,
      url: body.organizer!.url ?? null,
    }));
  }
  if (body.participation) {
    const p = body.participation;
    const given: Loose = { ...p };
    for (const field of ['registrationOpensAt', 'registrationClosesAt'] as const) {
      if (p[field] !== undefined) given[field] = new Date(p[field]);
    }
    nested(set, 'participation', before.participation, given, () => participationOf(p));
  }
  if (body.spectating)
    nested(set, 'spectating', before.spectating, { ...body.spectating }, () => spectatingOf(body.spectating));
  return set;
}
