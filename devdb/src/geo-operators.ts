import { Context } from 'mingo';
import type { Options } from 'mingo/types';
import { fail } from './errors.js';
import { anyPoint } from './geo.js';
import { compileWithin, geoValuesAtPath } from './geo-shapes.js';
import type { Doc } from './values.js';

function $geoWithin(selector: string, value: unknown, _options: Options): (doc: Doc) => boolean {
  const inside = compileWithin(value);
  return (doc) =>
    geoValuesAtPath(doc, selector).some((v) => {
      const point = anyPoint(v);
      return point !== undefined && inside(point);
    });
}

/** find answers `$near` itself (devdb/src/geo-near.ts); anywhere else mongod refuses it. */
function refuseNear(): never {
  fail('BadValue', '$geoNear, $near, and $nearSphere are not allowed in this context');
}

/** aggregate runs a leading `$geoNear` itself (devdb/src/commands/geo-near-stage.ts); mingo only sees later ones. */
function refuseGeoNearStage(): never {
  fail('Location40602', '$geoNear is only valid as the first stage in a pipeline.');
}

/** Geo operators mingo lacks, merged into every query and pipeline devdb runs. */
export const GEO_CONTEXT = Context.init({
  query: { $geoWithin, $within: $geoWithin, $near: refuseNear, $nearSphere: refuseNear },
  pipeline: { $geoNear: refuseGeoNearStage },
} as unknown as Parameters<typeof Context.init>[0]);
