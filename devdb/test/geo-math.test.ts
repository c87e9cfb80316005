import { describe, expect, it } from 'vitest';
import {
  anyPoint,
  EARTH_RADIUS_M,
  geoKeyProblem,
  inBox,
  inPolygonFlat,
  inPolygonSpherical,
  type LngLat,
  sphericalAngle,
  sphericalMetres,
} from '../src/geo.js';
import { compileWithin, geoValuesAtPath } from '../src/geo-shapes.js';

const square: LngLat[] = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 10],
  [0, 0],
];

describe('great-circle distance', () => {
  it("measures one degree of the equator as π/180 of mongod's 6378100 m sphere", () => {
    expect(sphericalAngle([0, 0], [1, 0])).toBeCloseTo(Math.PI / 180, 12);
    expect(sphericalMetres([0, 0], [0, 1])).toBeCloseTo((EARTH_RADIUS_M * Math.PI) / 180, 6);
  });

  it('is exact for antipodes and zero for the same point', () => {
    expect(sphericalAngle([0, 0], [180, 0])).toBeCloseTo(Math.PI, 12);
    expect(sphericalAngle([13.4, 52.5], [13.4, 52.5])).toBe(0);
  });

  it('puts Paris about 343.9 km from London on that sphere', () => {
    expect(sphericalMetres([2.3522, 48.8566], [-0.1276, 51.5072]) / 1000).toBeCloseTo(343.9, 0);
  });
});

describe('shapes', () => {
  it('tests points against a geodesic polygon, honouring holes', () => {
    expect(inPolygonSpherical([5, 5], [square])).toBe(true);
    expect(inPolygonSpherical([15, 5], [square])).toBe(false);
    const hole: LngLat[] = [
      [4, 4],
      [6, 4],
      [6, 6],
      [4, 6],
      [4, 4],
    ];
    expect(inPolygonSpherical([5, 5], [square, hole])).toBe(false);
    expect(inPolygonSpherical([2, 2], [square, hole])).toBe(true);
  });

  it('follows great circles, not straight lat/lng lines, along a long east-west edge', () => {
    // The geodesic from (-60, 60) to (60, 60) bulges north to about 73.9°N at lng 0.
    const band: LngLat[] = [
      [-60, 60],
      [60, 60],
      [60, 80],
      [-60, 80],
      [-60, 60],
    ];
    expect(inPolygonSpherical([0, 65], [band])).toBe(false);
    expect(inPolygonSpherical([0, 75], [band])).toBe(true);
  });

  it('tests legacy flat polygons and boxes', () => {
    expect(
      inPolygonFlat(
        [1, 1],
        [
          [0, 0],
          [3, 0],
          [0, 3],
        ],
      ),
    ).toBe(true);
    expect(
      inPolygonFlat(
        [2, 2],
        [
          [0, 0],
          [3, 0],
          [0, 3],
        ],
      ),
    ).toBe(false);
    expect(inBox([5, 5], [10, 10], [0, 0])).toBe(true);
    expect(inBox([11, 5], [0, 0], [10, 10])).toBe(false);
  });

  it('compiles $centerSphere in radians and refuses unknown specifiers', () => {
    const within = compileWithin({ $centerSphere: [[0, 0], Math.PI / 180] });
    expect(within([0.99, 0])).toBe(true);
    expect(within([1.01, 0])).toBe(false);
    expect(() => compileWithin({ $triangle: [] })).toThrow(/unknown geo specifier/);
  });
});

describe('stored values', () => {
  it('reads GeoJSON points, legacy pairs and legacy embedded documents', () => {
    expect(anyPoint({ type: 'Point', coordinates: [1, 2] })).toEqual([1, 2]);
    expect(anyPoint([1, 2])).toEqual([1, 2]);
    expect(anyPoint({ lng: 1, lat: 2 })).toEqual([1, 2]);
    expect(anyPoint({ type: 'Point', coordinates: ['1', 2] })).toBeUndefined();
  });

  it('keeps a coordinate pair whole but fans out arrays of points', () => {
    expect(geoValuesAtPath({ loc: [1, 2] }, 'loc')).toEqual([[1, 2]]);
    expect(geoValuesAtPath({ locs: [{ p: [1, 2] }, { p: [3, 4] }] }, 'locs.p')).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('names what a 2dsphere index cannot hold', () => {
    expect(geoKeyProblem({ type: 'Point', coordinates: [200, 0] })).toMatch(/out of bounds/);
    expect(geoKeyProblem('Berlin')).toMatch(/Point must be/);
    expect(geoKeyProblem({ type: 'Blob' })).toMatch(/unknown GeoJSON type/);
    expect(geoKeyProblem(undefined)).toBeUndefined();
    expect(geoKeyProblem({ type: 'Point', coordinates: [13.4, 52.5] })).toBeUndefined();
  });
});
