import { isPlainObject } from './values.js';

/** The sphere mongod's 2dsphere distances use (S2's kRadiusOfEarthInMeters). */
export const EARTH_RADIUS_M = 6378100;

/** `[x, y]`: longitude then latitude, as GeoJSON orders them. */
export type LngLat = readonly [number, number];

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A GeoJSON Point's coordinates, or undefined for anything else. */
export function geoJsonPoint(value: unknown): LngLat | undefined {
  if (!isPlainObject(value) || value.type !== 'Point') return undefined;
  const c = value.coordinates;
  if (!Array.isArray(c) || c.length !== 2 || !isNumber(c[0]) || !isNumber(c[1])) return undefined;
  return [c[0], c[1]];
}

/** A legacy coordinate pair: `[x, y]` or an embedded document whose first two values are numbers. */
export function legacyPoint(value: unknown): LngLat | undefined {
  if (Array.isArray(value)) {
    return value.length >= 2 && isNumber(value[0]) && isNumber(value[1]) ? [value[0], value[1]] : undefined;
  }
  if (!isPlainObject(value) || 'type' in value) return undefined;
  const [x, y] = Object.values(value);
  return isNumber(x) && isNumber(y) ? [x, y] : undefined;
}

/** Either form of point a geo index accepts. */
export function anyPoint(value: unknown): LngLat | undefined {
  return geoJsonPoint(value) ?? legacyPoint(value);
}

export function inLngLatBounds([lng, lat]: LngLat): boolean {
  return lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90;
}

type Vec3 = readonly [number, number, number];

function toVec([lng, lat]: LngLat): Vec3 {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const norm = (a: Vec3): number => Math.sqrt(dot(a, a));

/** Great-circle angle between two points, in radians (atan2 form: exact for tiny and antipodal angles). */
export function sphericalAngle(a: LngLat, b: LngLat): number {
  const va = toVec(a);
  const vb = toVec(b);
  return Math.atan2(norm(cross(va, vb)), dot(va, vb));
}

export function sphericalMetres(a: LngLat, b: LngLat): number {
  return sphericalAngle(a, b) * EARTH_RADIUS_M;
}

export function flatDistance(a: LngLat, b: LngLat): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/**
 * Whether `p` lies inside a ring whose edges are great-circle arcs (GeoJSON on
 * a 2dsphere): the signed angles the edges subtend at `p` add up to ±2π inside
 * and 0 outside, for rings smaller than a hemisphere as mongod requires.
 */
export function inRingSpherical(p: LngLat, ring: readonly LngLat[]): boolean {
  const vp = toVec(p);
  const tangent = (v: Vec3): Vec3 => {
    const d = dot(v, vp);
    return [v[0] - d * vp[0], v[1] - d * vp[1], v[2] - d * vp[2]];
  };
  let total = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const a = tangent(toVec(ring[i]!));
    const b = tangent(toVec(ring[i + 1]!));
    if (norm(a) < 1e-15 || norm(b) < 1e-15) return true;
    total += Math.atan2(dot(cross(a, b), vp), dot(a, b));
  }
  return Math.abs(total) > Math.PI;
}

/** GeoJSON Polygon: inside the outer ring and outside every hole. */
export function inPolygonSpherical(p: LngLat, rings: readonly (readonly LngLat[])[]): boolean {
  const [outer, ...holes] = rings;
  if (!outer || !inRingSpherical(p, outer)) return false;
  return !holes.some((hole) => inRingSpherical(p, hole));
}

/** Legacy `$polygon`: flat (x, y) plane, even-odd rule; the ring closes itself. */
export function inPolygonFlat([x, y]: LngLat, ring: readonly LngLat[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Legacy `$box`: two opposite corners in the flat plane, edges included. */
export function inBox([x, y]: LngLat, a: LngLat, b: LngLat): boolean {
  return (
    x >= Math.min(a[0], b[0]) && x <= Math.max(a[0], b[0]) && y >= Math.min(a[1], b[1]) && y <= Math.max(a[1], b[1])
  );
}

const GEOJSON_TYPES = new Set([
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
]);

/** Why a 2dsphere index cannot hold `value` (mongod refuses such writes), or undefined when it can. */
export function geoKeyProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (isPlainObject(value) && 'type' in value) {
    if (typeof value.type !== 'string' || !GEOJSON_TYPES.has(value.type))
      return `unknown GeoJSON type: ${String(value.type)}`;
    if (value.type !== 'Point')
      return Array.isArray(value.coordinates) || value.type === 'GeometryCollection'
        ? undefined
        : 'coordinates must be an array';
  }
  const point = geoJsonPoint(value) ?? legacyPoint(value);
  if (!point)
    return isPlainObject(value) && value.type === 'Point'
      ? 'Point must only contain numeric elements'
      : 'Point must be an array or object';
  if (!inLngLatBounds(point)) return `longitude/latitude is out of bounds, lng: ${point[0]} lat: ${point[1]}`;
  return undefined;
}
