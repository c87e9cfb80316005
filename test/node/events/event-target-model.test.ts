import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { localToUtc } from '../../../worker/events/catalog/local-time';
import { toTargetShape } from '../../../worker/events/catalog/record-upgrade';
import { spotNamesAgree } from '../../../worker/events/catalog/spot-link';
import { isNearIdenticalTitle, titleSimilarity } from '../../../worker/events/catalog/title-similarity';
import { incomingWins } from '../../../worker/events/catalog/trust';
import { eventView } from '../../../worker/events/catalog/views';
import type { EventDoc } from '../../../worker/events/documents';

describe('localToUtc: local wall time in an IANA zone to the UTC instant', () => {
  it('applies standard and daylight offsets', () => {
    expect(localToUtc('2031-01-15T18:00', 'America/Los_Angeles')?.toISOString()).toBe('2031-01-16T02:00:00.000Z');
    expect(localToUtc('2031-07-15T18:00', 'America/Los_Angeles')?.toISOString()).toBe('2031-07-16T01:00:00.000Z');
    expect(localToUtc('2031-07-15T18:00', 'Europe/Berlin')?.toISOString()).toBe('2031-07-15T16:00:00.000Z');
    expect(localToUtc('2031-07-15T18:00', 'UTC')?.toISOString()).toBe('2031-07-15T18:00:00.000Z');
    expect(localToUtc('2031-07-15T09:30', 'Asia/Kolkata')?.toISOString()).toBe('2031-07-15T04:00:00.000Z');
  });

  it('moves a time skipped by spring-forward past the gap, and takes the first of a repeated fall-back hour', () => {
    // 2031-03-09: New York jumps from 02:00 EST to 03:00 EDT.
    expect(localToUtc('2031-03-09T02:30', 'America/New_York')?.toISOString()).toBe('2031-03-09T07:30:00.000Z');
    expect(localToUtc('2031-03-09T03:30', 'America/New_York')?.toISOString()).toBe('2031-03-09T07:30:00.000Z');
    // 2031-11-02: 01:30 happens twice; the first (EDT) wins.
    expect(localToUtc('2031-11-02T01:30', 'America/New_York')?.toISOString()).toBe('2031-11-02T05:30:00.000Z');
    expect(localToUtc('2031-11-02T03:00', 'America/New_York')?.toISOString()).toBe('2031-11-02T08:00:00.000Z');
  });

  it('refuses an unknown zone, an impossible date and a malformed time', () => {
    expect(localToUtc('2031-07-15T18:00', 'Mars/Olympus')).toBeNull();
    expect(localToUtc('2031-02-30T18:00', 'UTC')).toBeNull();
    expect(localToUtc('2031-07-15 18:00', 'UTC')).toBeNull();
    expect(localToUtc('2031-07-15T24:00', 'UTC')).toBeNull();
  });
});

describe('titleSimilarity: the one rule for "near-identical" titles', () => {
  it('scores the same event written two ways at or above the threshold', () => {
    expect(isNearIdenticalTitle('Rock & Roll Bowl Jam', 'Rock and Roll Bowl Jam 2031')).toBe(true);
    expect(isNearIdenticalTitle('Mini Ramp Mayhem', 'MINI-RAMP MAYHEM!')).toBe(true);
    expect(isNearIdenticalTitle('The Vans Park Series', 'Vans Park Series')).toBe(true);
  });

  it('keeps different events apart, and two empty titles are not similar', () => {
    expect(isNearIdenticalTitle('Park Jam', 'Bowl Jam')).toBe(false);
    expect(isNearIdenticalTitle('Street League Qualifier', 'Street League Final')).toBe(false);
    expect(titleSimilarity('', '')).toBe(0);
    expect(titleSimilarity('Jam', 'Jam')).toBe(1);
  });
});

describe('incomingWins: which listing content an event keeps', () => {
  it('the same source refreshes its own listing whatever its trust', () => {
    expect(incomingWins({ source: 'a', sourceTrust: 0.9 }, { source: 'a', sourceTrust: 0.1 })).toBe(true);
  });
  it('another source replaces it only when trusted strictly more; a tie keeps what is stored', () => {
    expect(incomingWins({ source: 'a', sourceTrust: 0.6 }, { source: 'b', sourceTrust: 0.9 })).toBe(true);
    expect(incomingWins({ source: 'a', sourceTrust: 0.9 }, { source: 'b', sourceTrust: 0.6 })).toBe(false);
    expect(incomingWins({ source: 'a', sourceTrust: 0.6 }, { source: 'b', sourceTrust: 0.6 })).toBe(false);
  });
  it('a missing trust counts as the default 0.5', () => {
    expect(incomingWins({ source: 'a', sourceTrust: null }, { source: 'b', sourceTrust: 0.6 })).toBe(true);
    expect(incomingWins({ source: 'a', sourceTrust: null }, { source: 'b', sourceTrust: undefined })).toBe(false);
  });
});

describe('toTargetShape and the Live view', () => {
  const live = {
    _id: new ObjectId(),
    slug: 's',
    dedupeKey: 'k',
    title: 'Bowl Invitational',
    level: 'invite-only',
    source: 'source-two',
    sourceTrust: 0.9,
    venue: { name: 'P', city: 'Austin', region: 'TX', country: 'US', lat: 30.27, lng: -97.74 },
    participation: { registrationStatus: 'open', fee: '$5' },
    updatedAt: new Date('2030-01-01T00:00:00Z'),
  } as unknown as EventDoc;

  it('moves invite-only into participation, adds a GeoJSON point, and approves a stored Live record', () => {
    const target = toTargetShape(live);
    expect(target).toMatchObject({
      level: [],
      participation: { inviteOnly: true, registrationStatus: 'open', fee: '$5', divisions: [] },
      venue: { location: { type: 'Point', coordinates: [-97.74, 30.27] }, spotId: null },
      approvalStatus: 'approved',
      relationshipCounts: { interested: 0, going: 0, competing: 0, watching_online: 0 },
      sourceRefs: [{ sourceId: 'source-two', externalId: null }],
      schemaVersion: 2,
    });
  });

  it('is idempotent, and the Live view of the target shape is the Live view of the record', () => {
    const target = toTargetShape(live);
    expect(toTargetShape(target)).toEqual(target);
    expect(eventView(target)).toEqual(eventView(live));
  });
});

describe('spotNamesAgree: the name half of venue.spotId linking', () => {
  it('agrees when one name holds the other or they are near-identical, never on a blank', () => {
    expect(spotNamesAgree('House Park', 'House Park Skatepark')).toBe(true);
    expect(spotNamesAgree('Burnside', 'BURNSIDE')).toBe(true);
    expect(spotNamesAgree('House Park', 'Mabel Davis')).toBe(false);
    expect(spotNamesAgree('', 'House Park')).toBe(false);
  });
});
