import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { placeDistanceKm, rankSimilar } from '../../../worker/events/catalog/similar';
import type { EventDoc } from '../../../worker/events/documents';

const event = (fields: Partial<EventDoc>): EventDoc => ({ _id: new ObjectId(), slug: 's', dedupeKey: 'd', ...fields });

describe('how far apart two events are held (worker/events/catalog/similar.ts)', () => {
  it('uses coordinates when both events have them', () => {
    const austin = event({ venue: { lat: 30.27, lng: -97.74 } });
    const houston = event({ venue: { lat: 29.76, lng: -95.37 } });
    expect(placeDistanceKm(austin, houston)).toBeGreaterThan(220);
    expect(placeDistanceKm(austin, houston)).toBeLessThan(250);
  });

  it('falls back on city, region and country, a blank field never contradicting', () => {
    const portlandOr = event({ venue: { city: 'Portland', region: 'OR' } });
    const portlandMe = event({ venue: { city: 'Portland', region: 'ME' } });
    const salemOr = event({ venue: { city: 'Salem', region: 'OR', country: 'US' } });
    const portlandBare = event({ venue: { city: 'portland' } });
    expect(placeDistanceKm(portlandOr, portlandBare)).toBe(0);
    expect(placeDistanceKm(portlandOr, portlandMe)).toBeGreaterThan(placeDistanceKm(portlandOr, salemOr));
    expect(placeDistanceKm(event({ venue: 'odd' as never }), event({}))).toBeGreaterThan(1000);
  });

  it('ranks by days apart plus distance, candidates without a date last', () => {
    const at = new Date('2031-06-10T12:00:00Z');
    const origin = event({ venue: { lat: 30.27, lng: -97.74 } });
    const soonFar = event({
      title: 'soon far',
      startAt: new Date('2031-06-11T12:00:00Z'),
      venue: { lat: 52.5, lng: 13.4 },
    });
    const laterNear = event({
      title: 'later near',
      startAt: new Date('2031-06-15T12:00:00Z'),
      venue: { lat: 30.3, lng: -97.7 },
    });
    const undated = event({ title: 'undated', venue: { lat: 30.27, lng: -97.74 } });
    const ranked = rankSimilar(origin, [undated, soonFar, laterNear], at, 3).map((e) => e.title);
    expect(ranked).toEqual(['later near', 'soon far', 'undated']);
  });
});
