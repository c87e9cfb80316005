import { fail } from './errors.js';
import {
  anyPoint,
  flatDistance,
  inBox,
  inPolygonFlat,
  inPolygonSpherical,
  type LngLat,
  legacyPoint,
  sphericalAngle,
} from './geo.js';
import { formatDoc, isPlainObject } from './values.js';

/** Decides whether a stored point lies in a `$geoWithin` shape. */
export type Shape = (p: LngLat) => boolean;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function bad(spec: unknown, why: string): never {
  fail('BadValue', `${why}: ${isPlainObject(spec) ? formatDoc(spec) : String(spec)}`);
}

function points(list: unknown, spec: unknown): LngLat[] {
  if (!Array.isArray(list)) bad(spec, 'Point list must be an array');
  return list.map((p) => legacyPoint(p) ?? bad(spec, 'Point must only contain numeric elements'));
}

function ring(list: unknown, spec: unknown): LngLat[] {
  const pts = points(list, spec);
  const [first, last] = [pts[0], pts[pts.length - 1]];
  if (pts.length < 4 || !first || !last || first[0] !== last[0] || first[1] !== last[1]) {
    bad(spec, 'Loop must be closed and have at least 4 vertices');
  }
  return pts;
}

/** A `$centerSphere`/`$center` argument: `[[x, y], radius]`. */
function circle(arg: unknown, spec: unknown): [LngLat, number] {
  if (!Array.isArray(arg) || arg.length !== 2) bad(spec, 'circle must be an array of a center and a radius');
  const center = legacyPoint(arg[0]) ?? bad(spec, 'circle center must be a point');
  const radius = arg[1];
  if (!isNumber(radius) || radius < 0) bad(spec, 'radius must be a non-negative number');
  return [center, radius];
}

function geometryShape(geometry: unknown, spec: unknown): Shape {
  if (!isPlainObject(geometry)) bad(spec, '$geometry must be a GeoJSON object');
  if (geometry.type === 'Polygon') {
    if (!Array.isArray(geometry.coordinates)) bad(spec, 'Polygon coordinates must be an array');
    const rings = geometry.coordinates.map((r) => ring(r, spec));
    return (p) => inPolygonSpherical(p, rings);
  }
  if (geometry.type === 'MultiPolygon') {
    if (!Array.isArray(geometry.coordinates)) bad(spec, 'MultiPolygon coordinates must be an array');
    const polygons = geometry.coordinates.map((poly) => {
      if (!Array.isArray(poly)) bad(spec, 'Polygon coordinates must be an array');
      return poly.map((r) => ring(r, spec));
    });
    return (p) => polygons.some((rings) => inPolygonSpherical(p, rings));
  }
  bad(spec, '$geoWithin not supported with provided geometry');
}

/** Compiles the argument of `$geoWithin`/`$within` into a point test. */
export function compileWithin(spec: unknown): Shape {
  if (!isPlainObject(spec) || Object.keys(spec).length !== 1) bad(spec, "geo query doesn't have any geometry");
  const [op, arg] = Object.entries(spec)[0]!;
  switch (op) {
    case '$geometry':
      return geometryShape(arg, spec);
    case '$centerSphere': {
      const [center, radians] = circle(arg, spec);
      return (p) => sphericalAngle(center, p) <= radians;
    }
    case '$center': {
      const [center, radius] = circle(arg, spec);
      return (p) => flatDistance(center, p) <= radius;
    }
    case '$box': {
      const corners = points(arg, spec);
      if (corners.length !== 2) bad(spec, '$box must have exactly two corners');
      return (p) => inBox(p, corners[0]!, corners[1]!);
    }
    case '$polygon': {
      const vertices = points(arg, spec);
      if (vertices.length < 3) bad(spec, 'Polygon must have at least 3 points');
      return (p) => inPolygonFlat(p, vertices);
    }
    default:
      bad(spec, `unknown geo specifier ${op}`);
  }
}

/**
 * Values a geo field holds: like a dotted-path read, but a coordinate pair at
 * the leaf stays whole instead of fanning out into two numbers.
 */
export function geoValuesAtPath(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  const walk = (value: unknown, parts: string[]): void => {
    if (parts.length === 0) {
      if (Array.isArray(value) && !legacyPoint(value)) out.push(...value);
      else out.push(value);
      return;
    }
    if (Array.isArray(value)) {
      for (const el of value) walk(el, parts);
      return;
    }
    const [head, ...rest] = parts;
    if (isPlainObject(value) && Object.hasOwn(value, head!)) walk(value[head!], rest);
  };
  walk(doc, path.split('.'));
  return out;
}

/** Stored points a field holds, each with the value it came from (for `includeLocs`). */
export function pointsAt(doc: unknown, path: string): { point: LngLat; value: unknown }[] {
  const out: { point: LngLat; value: unknown }[] = [];
  for (const value of geoValuesAtPath(doc, path)) {
    const point = anyPoint(value);
    if (point) out.push({ point, value });
  }
  return out;
}
