import type { Collection } from '../collection.js';
import { fail } from '../errors.js';
import { geoJsonPoint, type LngLat, legacyPoint } from '../geo.js';
import { assertNearIndex, geoIndexedFields, type Metric, type NearQuery, nearest } from '../geo-near.js';
import { setPath } from '../paths.js';
import { matching, type QueryContext } from '../query.js';
import { cloneDoc, type Doc, isPlainObject } from '../values.js';

interface GeoNearSpec {
  near: NearQuery;
  key?: string;
  distanceField: string;
  distanceMultiplier: number;
  includeLocs?: string;
  query?: Doc;
}

function nonNegative(options: Doc, name: string): number | undefined {
  const v = options[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || Number.isNaN(v)) fail('TypeMismatch', `${name} must be a number`);
  if (v < 0) fail('BadValue', `${name} must be nonnegative`);
  return v;
}

/** Parses the stage's options with mongod's messages (document_source_geo_near.cpp). */
function parseGeoNear(options: unknown): GeoNearSpec {
  if (!isPlainObject(options)) fail('BadValue', '$geoNear must take a nested object');
  for (const gone of ['limit', 'num', 'start']) {
    if (gone in options) fail('BadValue', `$geoNear no longer supports the '${gone}' parameter`);
  }
  if (options.near === undefined) fail('Location5860400', "$geoNear requires a 'near' argument");
  const geoJson = geoJsonPoint(options.near);
  const center: LngLat | undefined = geoJson ?? legacyPoint(options.near);
  if (!center) fail('BadValue', `invalid argument in geo near query: near`);
  const { distanceField, includeLocs, key, query } = options;
  if (typeof distanceField !== 'string' || !distanceField) {
    fail('Location16606', "$geoNear requires a 'distanceField' option as a String");
  }
  if (includeLocs !== undefined && typeof includeLocs !== 'string') {
    fail('Location16607', "$geoNear requires that 'includeLocs' option is a String");
  }
  if (key !== undefined && (typeof key !== 'string' || !key)) {
    fail('BadValue', `$geoNear parameter 'key' must be of type string but found type: ${typeof key}`);
  }
  if (query !== undefined && !isPlainObject(query)) fail('TypeMismatch', 'query must be an object');
  const metric: Metric = geoJson ? 'metres' : options.spherical === true ? 'radians' : 'flat';
  const near: NearQuery = {
    field: key ?? '',
    center,
    metric,
    max: nonNegative(options, 'maxDistance'),
    min: nonNegative(options, 'minDistance'),
    nearSphere: metric !== 'flat',
  };
  return {
    near,
    key,
    distanceField,
    distanceMultiplier: nonNegative(options, 'distanceMultiplier') ?? 1,
    includeLocs,
    query,
  };
}

/** Without `key`, mongod picks the only 2d index, else the only 2dsphere index (pipeline_d.cpp). */
function chooseField(coll: Collection): string {
  for (const type of ['2d', '2dsphere']) {
    const fields = geoIndexedFields(coll, [type]);
    if (fields.length > 1) {
      fail('IndexNotFound', `There is more than one ${type} index on ${coll.ns}; unsure which to use for $geoNear`);
    }
    if (fields.length === 1) return fields[0]!;
  }
  fail('IndexNotFound', '$geoNear requires a 2d or 2dsphere index, but none were found');
}

/** Runs a leading `$geoNear`: matching documents, nearest first, each a copy carrying its distance. */
export function runGeoNear(stage: unknown, coll: Collection | undefined, ctx: QueryContext): Doc[] {
  const spec = parseGeoNear(stage);
  if (!coll) return [];
  const near = { ...spec.near, field: spec.key ?? chooseField(coll) };
  assertNearIndex(coll, coll.ns, near);
  return nearest(matching(coll, spec.query, ctx), near).map(({ doc, distance, loc }) => {
    const out = cloneDoc(doc);
    setPath(out, spec.distanceField, distance * spec.distanceMultiplier);
    if (spec.includeLocs) setPath(out, spec.includeLocs, cloneDoc(loc));
    return out;
  });
}
