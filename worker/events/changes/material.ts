import { createHash } from 'node:crypto';
import { coordinatesOf } from '../catalog/geo';
import type { EventDoc } from '../documents';

// What counts as a material change of a published event: the fields a rider
// who plans to go would act on. Pure, so the rule is unit-tested apart from storage.

export const MATERIAL_FIELDS = ['startAt', 'endAt', 'venue', 'status', 'registrationStatus'] as const;
export type MaterialField = (typeof MATERIAL_FIELDS)[number];

export interface FieldChange {
  field: MaterialField;
  before: unknown;
  after: unknown;
}

type Loose = Record<string, unknown>;
const object = (value: unknown): Loose => (typeof value === 'object' && value !== null ? (value as Loose) : {});
const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

function instant(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string' || typeof value === 'number') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return null;
}

/**
 * Where the rider has to go: name, address, city, region, country and the point (rounded to about
 * 10 m, so re-geocoding noise is not a move). A linked spot or other venue keys are not material.
 */
export function venueOf(venue: unknown) {
  const v = object(venue);
  const at = coordinatesOf(venue);
  return {
    name: text(v.name),
    address: text(v.address),
    city: text(v.city),
    region: text(v.region),
    country: text(v.country),
    coordinates: at ? [Math.round(at.lng * 1e4) / 1e4, Math.round(at.lat * 1e4) / 1e4] : null,
  };
}

/** The stored value of each material field, as compared and as logged. */
export function materialValues(event: Partial<EventDoc> | null | undefined): Record<MaterialField, unknown> {
  const e = (event ?? {}) as Loose;
  return {
    startAt: instant(e.startAt),
    endAt: instant(e.endAt),
    venue: venueOf(e.venue),
    status: text(e.status),
    registrationStatus: text(object(e.participation).registrationStatus),
  };
}

const same = (a: unknown, b: unknown) =>
  a instanceof Date || b instanceof Date
    ? (a as Date | null)?.getTime?.() === (b as Date | null)?.getTime?.()
    : JSON.stringify(a) === JSON.stringify(b);

/**
 * The material fields that differ between two stored documents of one event. `status` moving from
 * scheduled to completed is the clock passing the event's last day (worker/events/ingestion/bulk-writer.ts
 * completePastEvents), not news; any other status change (a cancellation, `status: 'cancelled'`, or
 * its reversal) is.
 */
export function materialChanges(before: Partial<EventDoc> | null, after: Partial<EventDoc> | null): FieldChange[] {
  const was = materialValues(before);
  const now = materialValues(after);
  const changes: FieldChange[] = [];
  for (const field of MATERIAL_FIELDS) {
    if (same(was[field], now[field])) continue;
    if (
      field === 'status' &&
      [was.status, now.status].every((s) => s === null || s === 'scheduled' || s === 'completed')
    )
      continue;
    changes.push({ field, before: was[field], after: now[field] });
  }
  return changes;
}

/** Published means approved, or a Live record from before approvalStatus existed (worker/events/catalog/vocabulary.ts PUBLISHED). */
export const isPublished = (event: Pick<EventDoc, 'approvalStatus'> | null | undefined) =>
  !!event && event.approvalStatus !== 'pending' && event.approvalStatus !== 'rejected';

const printable = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/**
 * The key of one write's changes: the event, each changed field's before and after, and the instant the
 * write stamped (`after.updatedAt`, else `at`). Two callers that saw the same write (two overlapping
 * ingestion runs, a retried admin edit) compute the same key, so the unique indexes keep one log row per
 * field and one job per rider.
 */
export function changeKeyOf(eventId: string, changes: FieldChange[], stampedAt: Date): string {
  const parts = changes.map((c) => [c.field, printable(c.before), printable(c.after)]);
  return createHash('sha256')
    .update(JSON.stringify([eventId, stampedAt.toISOString(), parts]))
    .digest('hex')
    .slice(0, 32);
}
