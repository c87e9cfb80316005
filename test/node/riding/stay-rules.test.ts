import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { countryKey, foldKey, httpUrl, placeMismatches } from '../../../worker/riding/stays/normalise';
import { decodeRankCursor, encodeRankCursor, type RankedStay } from '../../../worker/riding/stays/ranking';

describe('stay rules (pure)', () => {
  it('folds a name: accents, case, outer and inner whitespace', () => {
    expect(foldKey('  Hôtel \t du   LAC ')).toBe('hotel du lac');
    expect(foldKey('Zürich Ñandú')).toBe('zurich nandu');
  });

  it('compares countries by ISO code, whether named or coded', () => {
    expect(countryKey('Portugal')).toBe('PT');
    expect(countryKey(' pt ')).toBe('PT');
    expect(countryKey('Atlantis')).toBe('atlantis');
    expect(placeMismatches({ country: 'Portugal' }, { country: 'PT' })).toEqual([]);
    expect(placeMismatches({ country: 'Spain' }, { country: 'PT' })).toEqual(['country']);
  });

  it('finds place contradictions only where both sides are known', () => {
    const spot = { city: 'München', state: 'Bavaria', country: 'Germany' };
    expect(placeMismatches({ city: ' munchen', country: 'GERMANY' }, spot)).toEqual([]);
    expect(placeMismatches({ city: 'Vienna', state: 'Bavaria', country: 'Austria' }, spot)).toEqual([
      'city',
      'country',
    ]);
    expect(placeMismatches({ country: 'Austria' }, {})).toEqual([]);
  });

  it('accepts only http and https URLs, normalised', () => {
    expect(httpUrl('https://EXAMPLE.com')).toBe('https://example.com/');
    expect(httpUrl('http://example.com/a?b=1')).toBe('http://example.com/a?b=1');
    for (const bad of ['javascript:alert(1)', 'ftp://example.com', 'example.com', ''])
      expect(httpUrl(bad)).toBeUndefined();
  });

  it('round-trips a ranking cursor and refuses anything it did not make', () => {
    const [spotId, stayId] = [new ObjectId(), new ObjectId()];
    const row: RankedStay = {
      spotId,
      spotName: 'x',
      stay: { _id: stayId },
      band: 1,
      ratingKey: 4.5,
      distanceKey: 12.25,
    };
    expect(decodeRankCursor(encodeRankCursor(row)!)).toEqual({
      band: 1,
      ratingKey: 4.5,
      distanceKey: 12.25,
      spotId: spotId.toHexString(),
      stayId: stayId.toHexString(),
    });
    expect(encodeRankCursor({ ...row, spotId: 'no id' })).toBeUndefined();
    for (const bad of ['', 'not base64!', btoa('[1,2]'), btoa('[1,2,3,"zz","yy"]'), btoa('{"a":1}')]) {
      expect(decodeRankCursor(bad)).toBeUndefined();
    }
  });
});
