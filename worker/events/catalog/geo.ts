import type { Filter } from 'mongodb';
import type { EventDoc } from '../documents';
import type { BoundingBox } from './query-schema';
import { EVENT_SCHEMA_VERSION } from './vocabulary';

// Where an event is: venue.location (GeoJSON, 2dsphere index) on target
// documents, venue.lat/lng on Live records not yet migrated (migrations-notes/events-target-model.md).

type Loose = Record<string, unknown>;
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The venue's coordinates: its GeoJSON point first, else the Live lat/lng; null without both numbers. */
export function coordinatesOf(venue: unknown): { lat: number; lng: number } | null {
  const v = (typeof venue === 'object' && venue !== null ? venue : {}) as Loose;
  const point = (typeof v.location === 'object' && v.location !== null ? v.location : {}) as Loose;
  const [lng, lat] = Array.isArray(point.coordinates) ? point.coordinates : [];
  if (point.type === 'Point' && finite(lat) && finite(lng)) return { lat, lng };
  return finite(v.lat) && finite(v.lng) ? { lat: v.lat, lng: v.lng } : null;
}

/** Longitude strips at most this wide, so each cover polygon is well inside a hemisphere. */
const STRIP_DEGREES = 90;
/** Parallels are drawn as points this far apart; a geodesic between them strays well under PAD_DEGREES. */
const STEP_DEGREES = 1;
const PAD_DEGREES = 0.01;
const POLE = 89.99;

function strips(box: BoundingBox): [number, number][] {
  const spans: [number, number][] =
    box.minLng <= box.maxLng
      ? [[box.minLng, box.maxLng]]
      : [
          [box.minLng, 180],
          [-180, box.maxLng],
        ];
  return spans.flatMap(([from, to]) => {
    const out: [number, number][] = [];
    for (let west = from; west < to || out.length === 0; west += STRIP_DEGREES) {
      out.push([west, Math.min(to, west + STRIP_DEGREES)]);
      if (west + STRIP_DEGREES >= to) break;
    }
    return out;
  });
}

function ring(west: number, east: number, south: number, north: number): [number, number][] {
  const along = (lat: number, a: number, b: number) => {
    const n = Math.max(1, Math.ceil(Math.abs(b - a) / STEP_DEGREES));
    return Array.from({ length: n + 1 }, (_, i) => [a + ((b - a) * i) / n, lat] as [number, number]);
  };
  const [w, e] = [Math.max(-180, west - PAD_DEGREES), Math.min(180, east + PAD_DEGREES)];
  const [s, n] = [Math.max(-POLE, south - PAD_DEGREES), Math.min(POLE, north + PAD_DEGREES)];
  return [...along(s, w, e), ...along(n, e, w), [w, s]];
}

/**
 * Events inside the box: on target documents the 2dsphere index finds the candidates (a
 * MultiPolygon a little larger than the box) and the exact degree ranges below decide; Live
 * records (no schemaVersion) are found by lat/lng as before.
 */
export function boxFilter(box: BoundingBox): Filter<EventDoc> {
  const range = (min: number, max: number) => ({ $type: 'number' as const, $gte: min, $lte: max });
  const lngRange = (field: string): Filter<EventDoc> =>
    box.minLng <= box.maxLng
      ? { [field]: range(box.minLng, box.maxLng) }
      : { $or: [{ [field]: range(box.minLng, 180) }, { [field]: range(-180, box.maxLng) }] };
  const cover = {
    type: 'MultiPolygon',
    coordinates: strips(box).map(([west, east]) => [ring(west, east, box.minLat, box.maxLat)]),
  };
  return {
    $or: [
      {
        schemaVersion: EVENT_SCHEMA_VERSION,
        'venue.location': { $geoWithin: { $geometry: cover } },
        $and: [
          { 'venue.location.coordinates.1': range(box.minLat, box.maxLat) },
          lngRange('venue.location.coordinates.0'),
        ],
      },
      { schemaVersion: null, 'venue.lat': range(box.minLat, box.maxLat), ...lngRange('venue.lng') },
    ],
  } as Filter<EventDoc>;
}
