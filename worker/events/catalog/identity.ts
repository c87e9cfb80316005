import { createHash } from 'node:crypto';
import { slugify } from '../../platform/http/slug';

// An event's identity (the interface spec, "Normalization rules"): the dedupe key that merges
// the same event seen twice, and the public slug derived from it. Ingestion and demo data share it.

/** Lower case, accents and entities' leftovers gone, every run of other characters one space. */
export function normalizeText(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The UTC calendar day of a date, `YYYY-MM-DD`; an event without a date yet has none. */
function utcDay(date: Date | null | undefined): string {
  return date ? date.toISOString().slice(0, 10) : '';
}

/** normalized-title|YYYY-MM-DD|normalized-city */
export function eventDedupeKey(event: { title: string; startAt: Date | null; city: string | null | undefined }) {
  return `${normalizeText(event.title)}|${utcDay(event.startAt)}|${normalizeText(event.city)}`;
}

/** The title's slug plus six characters of the dedupe key's MD5, so two same-named events differ. */
export function eventSlug(title: string, dedupeKey: string): string {
  const suffix = createHash('md5').update(dedupeKey).digest('hex').slice(0, 6);
  const base = slugify(title);
  return base ? `${base}-${suffix}` : suffix;
}

/** A calendar date (`YYYY-MM-DD`) as stored: noon UTC, so every time zone shows the same day. */
export function dayAtNoonUtc(day: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const date = new Date(`${day}T12:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day ? null : date;
}
