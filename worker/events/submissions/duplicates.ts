import { normalizeText } from '../catalog/identity';
import { isNearIdenticalTitle } from '../catalog/title-similarity';

// When a submission looks like an event already stored: the one rule below,
// the same one ingestion uses to join two sources' listings (worker/events/ingestion/cross-source.ts).

export interface Comparable {
  dedupeKey?: string | null;
  title?: string | null;
  startAt?: Date | null;
  city?: string | null;
}

/** A submission's dedupe key carries `|submission:<id>` so it never collides on the unique index; this is the key without it. */
export const baseDedupeKey = (key: string | null | undefined) => (key ?? '').replace(/\|submission:[0-9a-f]{24}$/, '');

const utcDay = (at: Date | null | undefined) =>
  at instanceof Date && !Number.isNaN(at.getTime()) ? at.toISOString().slice(0, 10) : '';

/**
 * The same event: the same dedupe key (normalized title, UTC day, normalized city), or the same
 * UTC day and the same normalized city with near-identical titles (Sørensen–Dice ≥ 0.85,
 * worker/events/catalog/title-similarity.ts). Events without a date are never the same by this rule.
 */
export function looksLikeSameEvent(submitted: Comparable, stored: Comparable): boolean {
  const key = baseDedupeKey(submitted.dedupeKey);
  if (key && key === baseDedupeKey(stored.dedupeKey)) return true;
  const day = utcDay(submitted.startAt);
  if (!day || day !== utcDay(stored.startAt)) return false;
  if (normalizeText(submitted.city) !== normalizeText(stored.city)) return false;
  return isNearIdenticalTitle(submitted.title, stored.title);
}
