import { type IndexSpecification, MongoServerError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M, sphericalMetres } from '../src/geo.js';
import { type AnyDoc, useTestServer } from './helpers.js';

const t = useTestServer();

const pt = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] });
const BERLIN = [13.405, 52.52];
const PLACES: AnyDoc[] = [
  { _id: 'potsdam', loc: pt(13.0645, 52.3906), kind: 'park' },
  { _id: 'berlin', loc: pt(13.405, 52.52), kind: 'park' },
  { _id: 'hamburg', loc: pt(9.9937, 53.5511), kind: 'bowl' },
  { _id: 'munich', loc: pt(11.582, 48.1351), kind: 'park' },
  { _id: 'nowhere', kind: 'park' },
];

async function places(index: IndexSpecification | null = { loc: '2dsphere' }) {
  const coll = t.db().collection<AnyDoc>('places');
  if (index) await coll.createIndex(index);
  await coll.insertMany(PLACES.map((p) => ({ ...p })));
  return coll;
}

const ids = (docs: AnyDoc[]) => docs.map((d) => d._id);
const metresFromBerlin = (lng: number, lat: number) => sphericalMetres([13.405, 52.52], [lng, lat]);

describe('2dsphere indexes', () => {
  it('accepts a 2dsphere key and lists it back', async () => {
    const coll = await places();
    const listed = await coll.listIndexes().toArray();
    expect(listed.map((i) => i.key)).toEqual([{ _id: 1 }, { loc: '2dsphere' }]);
    expect(listed[1]!.name).toBe('loc_2dsphere');
  });

  it('refuses a write whose indexed field is not a geometry, with code 16755', async () => {
    const coll = await places();
    const err = await coll.insertOne({ loc: pt(200, 0) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).code).toBe(16755);
    expect((err as MongoServerError).message).toMatch(
      /^Can't extract geo keys: .*longitude\/latitude is out of bounds/,
    );
    expect(await coll.countDocuments({ loc: { $exists: false } })).toBe(1);
  });
});

describe('$nearSphere and $near', () => {
  it('sorts by distance ascending and honours $maxDistance in metres', async () => {
    const coll = await places();
    const near = { $geometry: pt(BERLIN[0]!, BERLIN[1]!), $maxDistance: 300_000 };
    expect(ids(await coll.find({ loc: { $nearSphere: near } }).toArray())).toEqual(['berlin', 'potsdam', 'hamburg']);
    expect(ids(await coll.find({ loc: { $near: near } }).toArray())).toEqual(['berlin', 'potsdam', 'hamburg']);
  });

  it('honours $minDistance and combines with other conditions', async () => {
    const coll = await places();
    const near = { $geometry: pt(BERLIN[0]!, BERLIN[1]!), $minDistance: 1000 };
    const found = await coll.find({ loc: { $near: near }, kind: 'park' }).toArray();
    expect(ids(found)).toEqual(['potsdam', 'munich']);
  });

  it('takes the legacy form with sibling $maxDistance in radians for $nearSphere', async () => {
    const coll = await places();
    const radians = 300_000 / EARTH_RADIUS_M;
    const found = await coll.find({ loc: { $nearSphere: BERLIN, $maxDistance: radians } }).toArray();
    expect(ids(found)).toEqual(['berlin', 'potsdam', 'hamburg']);
  });

  it('applies limit after ordering by distance', async () => {
    const coll = await places();
    const found = await coll
      .find({ loc: { $near: { $geometry: pt(10, 53.5) } } })
      .limit(2)
      .toArray();
    expect(ids(found)).toEqual(['hamburg', 'potsdam']);
  });

  it('refuses $near without a geo index as mongod does (291 NoQueryExecutionPlans)', async () => {
    const coll = await places(null);
    const err = await coll
      .find({ loc: { $near: { $geometry: pt(0, 0) } } })
      .toArray()
      .catch((e: unknown) => e);
    expect((err as MongoServerError).code).toBe(291);
    expect((err as MongoServerError).codeName).toBe('NoQueryExecutionPlans');
    expect((err as MongoServerError).message).toMatch(/unable to find index for \$geoNear query$/);
  });

  it('refuses $near where mongod does not allow it (count)', async () => {
    const coll = await places();
    const err = await coll.countDocuments({ loc: { $near: { $geometry: pt(0, 0) } } }).catch((e: unknown) => e);
    expect((err as MongoServerError).message).toBe('$geoNear, $near, and $nearSphere are not allowed in this context');
  });
});

describe('$geoWithin', () => {
  it('matches points inside a $centerSphere given in radians', async () => {
    const coll = await places(null);
    const found = await coll
      .find({ loc: { $geoWithin: { $centerSphere: [BERLIN, 50_000 / EARTH_RADIUS_M] } } })
      .toArray();
    expect(ids(found).sort()).toEqual(['berlin', 'potsdam']);
  });

  it('matches points inside a $box and a legacy $polygon', async () => {
    const coll = await places(null);
    const box = await coll
      .find({
        loc: {
          $geoWithin: {
            $box: [
              [9, 52],
              [14, 54],
            ],
          },
        },
      })
      .toArray();
    expect(ids(box).sort()).toEqual(['berlin', 'hamburg', 'potsdam']);
    const triangle = await coll
      .find({
        loc: {
          $geoWithin: {
            $polygon: [
              [9, 50],
              [14, 50],
              [11.5, 47],
            ],
          },
        },
      })
      .toArray();
    expect(ids(triangle)).toEqual(['munich']);
  });

  it('matches points inside a GeoJSON $geometry Polygon', async () => {
    const coll = await places();
    const polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [12, 52],
          [14, 52],
          [14, 53],
          [12, 53],
          [12, 52],
        ],
      ],
    };
    const found = await coll.find({ loc: { $geoWithin: { $geometry: polygon } } }).toArray();
    expect(ids(found).sort()).toEqual(['berlin', 'potsdam']);
  });

  it('refuses a malformed shape with BadValue', async () => {
    const coll = await places();
    const err = await coll
      .find({ loc: { $geoWithin: { $box: [[0, 0]] } } })
      .toArray()
      .catch((e: unknown) => e);
    expect((err as MongoServerError).code).toBe(2);
  });
});

describe('$geoNear', () => {
  it('returns documents nearest first with distanceField in metres on a 6378100 m sphere', async () => {
    const coll = await places();
    const found = await coll
      .aggregate([{ $geoNear: { near: pt(BERLIN[0]!, BERLIN[1]!), distanceField: 'd', spherical: true } }])
      .toArray();
    expect(ids(found)).toEqual(['berlin', 'potsdam', 'hamburg', 'munich']);
    expect(found[0]!.d).toBe(0);
    expect(found[1]!.d).toBeCloseTo(metresFromBerlin(13.0645, 52.3906), 6);
  });

  it('applies maxDistance, minDistance, query, key, distanceMultiplier and includeLocs', async () => {
    const coll = await places();
    const found = await coll
      .aggregate([
        {
          $geoNear: {
            near: pt(BERLIN[0]!, BERLIN[1]!),
            key: 'loc',
            distanceField: 'dist.km',
            distanceMultiplier: 0.001,
            minDistance: 1,
            maxDistance: 700_000,
            query: { kind: 'park' },
            includeLocs: 'where',
          },
        },
        { $project: { dist: 1, where: 1 } },
      ])
      .toArray();
    expect(ids(found)).toEqual(['potsdam', 'munich']);
    expect(found[0]!.dist.km).toBeCloseTo(metresFromBerlin(13.0645, 52.3906) / 1000, 9);
    expect(found[0]!.where).toEqual(pt(13.0645, 52.3906));
  });

  it('feeds later stages such as $limit', async () => {
    const coll = await places();
    const found = await coll
      .aggregate([{ $geoNear: { near: pt(9.9, 53.5), distanceField: 'd' } }, { $limit: 1 }])
      .toArray();
    expect(ids(found)).toEqual(['hamburg']);
  });

  it("refuses a pipeline without a geo index with mongod's IndexNotFound text", async () => {
    const coll = await places(null);
    const err = await coll
      .aggregate([{ $geoNear: { near: pt(0, 0), distanceField: 'd' } }])
      .toArray()
      .catch((e: unknown) => e);
    expect((err as MongoServerError).code).toBe(27);
    expect((err as MongoServerError).message).toBe('$geoNear requires a 2d or 2dsphere index, but none were found');
  });

  it('refuses $geoNear anywhere but first, and a missing distanceField', async () => {
    const coll = await places();
    const late = await coll
      .aggregate([{ $match: {} }, { $geoNear: { near: pt(0, 0), distanceField: 'd' } }])
      .toArray()
      .catch((e: unknown) => e);
    expect((late as MongoServerError).code).toBe(40602);
    const noField = await coll
      .aggregate([{ $geoNear: { near: pt(0, 0) } }])
      .toArray()
      .catch((e: unknown) => e);
    expect((noField as MongoServerError).code).toBe(16606);
  });
});
