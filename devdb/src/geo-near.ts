import type { Collection } from './collection.js';
import { fail } from './errors.js';
import { flatDistance, geoJsonPoint, type LngLat, legacyPoint, sphericalAngle, sphericalMetres } from './geo.js';
import { pointsAt } from './geo-shapes.js';
import { type Doc, isPlainObject } from './values.js';

/** GeoJSON centres measure in metres, legacy `$nearSphere` in radians, legacy `$near` in flat units. */
export type Metric = 'metres' | 'radians' | 'flat';

export interface NearQuery {
  field: string;
  center: LngLat;
  metric: Metric;
  min?: number;
  max?: number;
  nearSphere: boolean;
}

export interface NearHit {
  doc: Doc;
  distance: number;
  loc: unknown;
}

const NEAR_OPS = new Set(['$near', '$nearSphere']);

export function distanceFn(metric: Metric): (a: LngLat, b: LngLat) => number {
  if (metric === 'metres') return sphericalMetres;
  return metric === 'radians' ? sphericalAngle : flatDistance;
}

function distanceBound(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value)) fail('BadValue', `${name} must be a number`);
  if (value < 0) fail('BadValue', `${name} must be non-negative`);
  return value;
}

/** Parses `{field: {$near|$nearSphere: …, $maxDistance?, $minDistance?}}` into a near query. */
function parseNear(field: string, cond: Doc): { near: NearQuery; rest: Doc } {
  const op = Object.keys(cond).find((k) => NEAR_OPS.has(k)) ?? '$near';
  const { [op]: arg, $maxDistance, $minDistance, ...rest } = cond;
  const nearSphere = op === '$nearSphere';
  let center: LngLat | undefined;
  let metric: Metric;
  let max = distanceBound($maxDistance, '$maxDistance');
  let min = distanceBound($minDistance, '$minDistance');
  if (isPlainObject(arg) && '$geometry' in arg) {
    center = geoJsonPoint(arg.$geometry);
    if (!center)
      fail('BadValue', `invalid point in geo near query $geometry argument: ${JSON.stringify(arg.$geometry)}`);
    metric = 'metres';
    max = distanceBound(arg.$maxDistance, '$maxDistance') ?? max;
    min = distanceBound(arg.$minDistance, '$minDistance') ?? min;
  } else {
    center = geoJsonPoint(arg) ?? legacyPoint(arg);
    if (!center) fail('BadValue', `near must be first in: ${JSON.stringify(cond)}`);
    metric = geoJsonPoint(arg) ? 'metres' : nearSphere ? 'radians' : 'flat';
  }
  return { near: { field, center, metric, min, max, nearSphere }, rest };
}

/**
 * Takes the one `$near`/`$nearSphere` clause out of a find filter (top level or
 * inside a top-level `$and`, where mongod's planner finds it); the rest goes to mingo.
 */
export function extractNear(filter: Doc | undefined): { near?: NearQuery; rest?: Doc } {
  if (!filter) return { rest: filter };
  let near: NearQuery | undefined;
  const take = (clause: Doc): Doc => {
    const out: Doc = {};
    for (const [field, cond] of Object.entries(clause)) {
      if (isPlainObject(cond) && Object.keys(cond).some((k) => NEAR_OPS.has(k))) {
        if (near) fail('BadValue', 'Too many geoNear expressions');
        const parsed = parseNear(field, cond);
        near = parsed.near;
        if (Object.keys(parsed.rest).length) out[field] = parsed.rest;
      } else if (field === '$and' && Array.isArray(cond)) {
        out.$and = cond.map((c) => (isPlainObject(c) ? take(c) : c));
      } else {
        out[field] = cond;
      }
    }
    return out;
  };
  const rest = take(filter);
  return { near, rest };
}

/** Fields carrying a geo index of one of `types`. */
export function geoIndexedFields(coll: Collection | undefined, types: string[]): string[] {
  const fields: string[] = [];
  for (const index of coll?.indexes.values() ?? []) {
    for (const [field, kind] of Object.entries(index.spec.key)) {
      if (typeof kind === 'string' && types.includes(kind)) fields.push(field);
    }
  }
  return fields;
}

/** Index types that can answer a near query measured this way (2d cannot do GeoJSON; 2dsphere cannot do flat). */
export function indexTypesFor(metric: Metric): string[] {
  if (metric === 'metres') return ['2dsphere'];
  return metric === 'radians' ? ['2d', '2dsphere'] : ['2d'];
}

/** mongod's planner refusal when no geo index can serve the near clause. */
export function assertNearIndex(coll: Collection | undefined, ns: string, near: NearQuery): void {
  if (geoIndexedFields(coll, indexTypesFor(near.metric)).includes(near.field)) return;
  fail(
    'NoQueryExecutionPlans',
    `error processing query: ns=${ns}Tree: GEONEAR  field=${near.field} maxdist=${near.max ?? 1.79769e308} isNearSphere=${near.nearSphere ? 1 : 0}\nSort: {}\nProj: {}\n planner returned error :: caused by :: unable to find index for $geoNear query`,
  );
}

/** Documents within [min, max] of the centre, nearest first (ties keep natural order). */
export function nearest(docs: Doc[], near: NearQuery): NearHit[] {
  const measure = distanceFn(near.metric);
  const hits: NearHit[] = [];
  for (const doc of docs) {
    let best: NearHit | undefined;
    for (const { point, value } of pointsAt(doc, near.field)) {
      const distance = measure(near.center, point);
      if (!best || distance < best.distance) best = { doc, distance, loc: value };
    }
    if (!best) continue;
    if (near.max !== undefined && best.distance > near.max) continue;
    if (near.min !== undefined && best.distance < near.min) continue;
    hits.push(best);
  }
  return hits.sort((a, b) => a.distance - b.distance);
}
