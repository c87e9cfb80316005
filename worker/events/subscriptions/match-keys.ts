import { coordinatesOf } from '../catalog/geo';
import type { EventDoc, EventSubscriptionDoc } from '../documents';

// How one new event finds the subscriptions it matches without reading them all.
//
// Each subscription is stored under a few `matchKeys` drawn from ONE of its criteria, the most
// selective it has (its anchor): the geo cells its circle covers, else its organizer, else its sports,
// else its disciplines, event kinds, intents or levels. An event computes every key it could be found
// under (its cell at each grid level, its organizer, each sport, …) and one `{matchKeys: {$in: keys}}`
// query on the multikey index `eventSubscriptions.matchKeys` returns the candidates: only subscriptions
// anchored on something the event has. `matches` then checks every criterion of each candidate.
// A subscription with no criterion is refused (schema.ts), so no subscription is a candidate for all.

type Point = { lat: number; lng: number };
export type SubscriptionCriteria = Pick<
  EventSubscriptionDoc,
  'sports' | 'disciplines' | 'eventKinds' | 'intents' | 'level' | 'place' | 'organizerId'
>;

const EARTH_RADIUS_KM = 6371;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;
/** Grid cell sizes in degrees, finest first; a circle is keyed at the finest level whose cell spans its diameter. */
export const GRID_DEGREES = [0.25, 1, 4, 16] as const;
/** A circle needing more cells than this at a level goes one level coarser (high latitudes stretch longitude). */
const CELLS_MAX = 16;

export const normalized = (value: string) => value.trim().toLowerCase();

export function haversineKm(a: Point, b: Point): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

const cellKey = (size: number, lat: number, lng: number) => {
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  return `cell:${size}:${Math.floor((lat + 90) / size)}:${Math.floor((wrapped + 180) / size)}`;
};

/** The grid cells (at one level) a circle's bounding box touches: a superset of those the circle touches. */
export function circleCells(center: Point, radiusKm: number): string[] {
  const dLat = radiusKm / KM_PER_DEGREE;
  // Longitude degrees shrink poleward: the circle's widest reach is at its poleward edge, plus 10 % for the
  // great circle bulging past the parallel, so the box always holds the circle.
  const poleward = Math.min(89.99, Math.abs(center.lat) + dLat);
  const cos = Math.max(0.01, Math.cos((poleward * Math.PI) / 180));
  const dLng = Math.min(180, (1.1 * radiusKm) / (KM_PER_DEGREE * cos));
  for (const size of GRID_DEGREES) {
    if (size * KM_PER_DEGREE < 2 * radiusKm && size !== GRID_DEGREES[GRID_DEGREES.length - 1]) continue;
    const south = Math.max(-90, center.lat - dLat);
    const north = Math.min(90 - 1e-9, center.lat + dLat);
    const rows = Math.floor((north + 90) / size) - Math.floor((south + 90) / size) + 1;
    const cols = Math.min(
      Math.ceil(360 / size),
      Math.floor((center.lng + dLng + 180) / size) - Math.floor((center.lng - dLng + 180) / size) + 1,
    );
    if (rows * cols > CELLS_MAX && size !== GRID_DEGREES[GRID_DEGREES.length - 1]) continue;
    const keys = new Set<string>();
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) keys.add(cellKey(size, south + r * size, center.lng - dLng + c * size));
    // The far edges, in case the stepping above stopped short of them.
    keys.add(cellKey(size, north, center.lng + dLng));
    keys.add(cellKey(size, south, center.lng + dLng));
    keys.add(cellKey(size, north, center.lng - dLng));
    return [...keys];
  }
  return [];
}

/** The keys a subscription is stored under: those of its anchor criterion alone. */
export function subscriptionKeys(sub: SubscriptionCriteria): string[] {
  if (sub.place) {
    const [lng, lat] = sub.place.location.coordinates;
    return circleCells({ lat, lng }, sub.place.radiusKm);
  }
  if (sub.organizerId) return [`org:${sub.organizerId.toHexString()}`];
  if (sub.sports.length) return sub.sports.map((s) => `sport:${normalized(s)}`);
  if (sub.disciplines.length) return sub.disciplines.map((s) => `discipline:${normalized(s)}`);
  if (sub.eventKinds.length) return sub.eventKinds.map((s) => `kind:${normalized(s)}`);
  if (sub.intents.length) return sub.intents.map((s) => `intent:${s}`);
  return sub.level.map((s) => `level:${s}`);
}

const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []).filter(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );

/** What of an event the criteria look at, read loosely (stored events may lack any field). */
export function eventFacts(event: Partial<EventDoc>) {
  return {
    sports: list(event.sports).map(normalized),
    disciplines: list(event.disciplines).map(normalized),
    eventKinds: list(event.eventKinds).map(normalized),
    intents: list(event.intents),
    level: list(event.level),
    organizerId: event.organizer?.canonicalId?.toHexString() ?? null,
    point: coordinatesOf(event.venue),
  };
}

/** Every key a subscription matching this event could be stored under. */
export function eventKeys(event: Partial<EventDoc>): string[] {
  const facts = eventFacts(event);
  const keys = [
    ...facts.sports.map((s) => `sport:${s}`),
    ...facts.disciplines.map((s) => `discipline:${s}`),
    ...facts.eventKinds.map((s) => `kind:${s}`),
    ...facts.intents.map((s) => `intent:${s}`),
    ...facts.level.map((s) => `level:${s}`),
  ];
  if (facts.organizerId) keys.push(`org:${facts.organizerId}`);
  if (facts.point) for (const size of GRID_DEGREES) keys.push(cellKey(size, facts.point.lat, facts.point.lng));
  return [...new Set(keys)];
}

const overlaps = (wanted: string[], has: string[], fold = false) =>
  wanted.length === 0 || wanted.some((w) => has.includes(fold ? normalized(w) : w));

/**
 * Whether an event matches a subscription: every criterion the subscription sets holds (within a list
 * criterion, any one value is enough); a place matches an event whose venue is within the radius.
 */
export function matches(sub: SubscriptionCriteria, event: Partial<EventDoc>): boolean {
  const facts = eventFacts(event);
  if (!overlaps(sub.sports, facts.sports, true)) return false;
  if (!overlaps(sub.disciplines, facts.disciplines, true)) return false;
  if (!overlaps(sub.eventKinds, facts.eventKinds, true)) return false;
  if (!overlaps(sub.intents, facts.intents)) return false;
  if (!overlaps(sub.level, facts.level)) return false;
  if (sub.organizerId && sub.organizerId.toHexString() !== facts.organizerId) return false;
  if (sub.place) {
    if (!facts.point) return false;
    const [lng, lat] = sub.place.location.coordinates;
    if (haversineKm({ lat, lng }, facts.point) > sub.place.radiusKm) return false;
  }
  return true;
}
