import type { ErrorDetail } from '../../platform/http/errors';

// A submission or an edit may give a time or a place in the stored form (an instant with an
// offset, a GeoJSON point) or as people write it (wall-clock time in `timezone`, lat/lng); one
// body gives each fact in one form, since two could disagree.

interface Forms {
  /** The target model's own fields. */
  stored: readonly string[];
  /** The same fact as a rider or an admin writes it. */
  written: readonly string[];
}

const TIMES: readonly Forms[] = [
  { stored: ['startAt'], written: ['startLocal'] },
  { stored: ['endAt'], written: ['endLocal'] },
];

/** The two forms of each fact, by where they sit: the body itself and each schedule session (times), its venue (place). */
export const GIVEN_FORMS = {
  event: TIMES,
  session: TIMES,
  venue: [{ stored: ['location'], written: ['lat', 'lng'] }],
} as const satisfies Record<string, readonly Forms[]>;

type Loose = Record<string, unknown>;
const given = (at: Loose, fields: readonly string[]) => fields.filter((field) => at[field] !== undefined);

/** One detail per field given in both forms of one fact, each naming the fields it conflicts with. */
function conflictsAt(at: unknown, forms: readonly Forms[], prefix: string): ErrorDetail[] {
  if (typeof at !== 'object' || at === null) return [];
  return forms.flatMap((form) => {
    const [stored, written] = [given(at as Loose, form.stored), given(at as Loose, form.written)];
    if (!stored.length || !written.length) return [];
    const detail = (fields: string[], others: string[]) =>
      fields.map((field) => ({
        field: `${prefix}${field}`,
        message: `conflicts with ${others.map((other) => `${prefix}${other}`).join(' and ')}: give one form, not both`,
      }));
    return [...detail(stored, written), ...detail(written, stored)];
  });
}

/** Every fact the body (an event submission or edit) gives in both forms. */
export function conflictingForms(body: Loose): ErrorDetail[] {
  const sessions = Array.isArray(body.schedule) ? body.schedule : [];
  return [
    ...conflictsAt(body, GIVEN_FORMS.event, ''),
    ...conflictsAt(body.venue, GIVEN_FORMS.venue, 'venue.'),
    ...sessions.flatMap((session, i) => conflictsAt(session, GIVEN_FORMS.session, `schedule.${i}.`)),
  ];
}
