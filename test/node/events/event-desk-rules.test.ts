import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { editSet } from '../../../worker/events/desk/edit';
import { combinedSourceRefs } from '../../../worker/events/desk/merge-rule';
import type { EventDoc, EventSourceRef } from '../../../worker/events/documents';
import { submissionDocument, utcTimes } from '../../../worker/events/submissions/document';
import { baseDedupeKey, looksLikeSameEvent } from '../../../worker/events/submissions/duplicates';
import { conflictingForms } from '../../../worker/events/submissions/given-forms';

// The pure rules of submissions and the desk.

const day = new Date('2031-06-14T12:00:00.000Z');

describe('looksLikeSameEvent (worker/events/submissions/duplicates.ts)', () => {
  it('matches the same dedupe key, a submission suffix ignored', () => {
    const id = new ObjectId().toHexString();
    expect(baseDedupeKey(`jam|2031-06-14|austin|submission:${id}`)).toBe('jam|2031-06-14|austin');
    expect(
      looksLikeSameEvent(
        { dedupeKey: `jam|2031-06-14|austin|submission:${id}` },
        { dedupeKey: 'jam|2031-06-14|austin' },
      ),
    ).toBe(true);
  });

  it('matches the same UTC day and city with a near-identical title, and nothing less', () => {
    const stored = { title: 'Rock and Roll Bowl Jam', startAt: day, city: 'Austin' };
    const like = { title: 'Rock & Roll Bowl Jam 2031', startAt: new Date('2031-06-14T20:00:00Z'), city: 'austin' };
    expect(looksLikeSameEvent(like, stored)).toBe(true);
    expect(looksLikeSameEvent({ ...like, city: 'Dallas' }, stored)).toBe(false);
    expect(looksLikeSameEvent({ ...like, startAt: new Date('2031-06-15T01:00:00Z') }, stored)).toBe(false);
    expect(looksLikeSameEvent({ ...like, title: 'Street League Finals' }, stored)).toBe(false);
    expect(looksLikeSameEvent({ ...like, startAt: null }, { ...stored, startAt: null })).toBe(false);
  });
});

describe('combinedSourceRefs (worker/events/desk/merge-rule.ts)', () => {
  const ref = (sourceId: string, externalId: string | null, payloadHash = 'h'): EventSourceRef => ({
    sourceId,
    externalId,
    url: null,
    sourceUpdatedAt: null,
    fetchedAt: null,
    payloadHash,
  });

  it("keeps the survivor's entries and adds each listing it lacks once", () => {
    const survivor = [ref('one', 'a', 'survivor')];
    const merged = [ref('one', 'a', 'merged'), ref('two', 'b'), ref('two', 'b'), ref('two', null)];
    expect(combinedSourceRefs(survivor, merged)).toEqual([
      ref('one', 'a', 'survivor'),
      ref('two', 'b'),
      ref('two', null),
    ]);
    expect(combinedSourceRefs(survivor, [])).toEqual(survivor);
  });
});

describe('submissions: local times and the stored document', () => {
  it('converts local times in the zone, naming what does not convert or runs backwards', () => {
    const ok = utcTimes({ startLocal: '2031-10-26T02:30', endLocal: '2031-10-26T04:00' }, 'Europe/Berlin');
    // 02:30 happens twice on the fall-back night: the first (CEST, UTC+2) is taken.
    expect(ok).toEqual({
      times: { startAt: new Date('2031-10-26T00:30:00Z'), endAt: new Date('2031-10-26T03:00:00Z') },
      errors: [],
    });
    const bad = utcTimes(
      {
        startLocal: '2031-02-30T10:00',
        endLocal: '2031-03-01T10:00',
        schedule: [{ name: 'Heats', startLocal: '2031-03-01T12:00', endLocal: '2031-03-01T11:00' }],
      },
      'Europe/Berlin',
    );
    expect(bad.errors.map((e) => e.field)).toEqual(['startLocal', 'schedule.0.endLocal']);
  });

  it('takes an instant with its offset as given, needs a zone only for local times, and compares ends across forms', () => {
    expect(utcTimes({ startAt: '2031-06-14T10:00:00-05:00', endAt: '2031-06-14T23:00:00Z' }, null)).toEqual({
      times: { startAt: new Date('2031-06-14T15:00:00Z'), endAt: new Date('2031-06-14T23:00:00Z') },
      errors: [],
    });
    const noZone = utcTimes({ startLocal: '2031-06-14T10:00', endLocal: '2031-06-14T12:00' }, undefined);
    expect(noZone.errors.map((e) => e.field)).toEqual(['timezone']);
    const mixed = utcTimes(
      {
        startLocal: '2031-06-14T10:00',
        endAt: '2031-06-14T14:00:00Z',
        schedule: [{ name: 'Finals', startAt: '2031-06-14T20:00:00Z', endLocal: '2031-06-14T14:00' }],
      },
      'America/Chicago',
    );
    expect(mixed.errors).toEqual([
      { field: 'endAt', message: 'is before startLocal' },
      { field: 'schedule.0.endLocal', message: 'is before schedule.0.startAt' },
    ]);
  });

  it('names every field given in both forms of one fact, and nothing when each comes in one', () => {
    const point = { type: 'Point', coordinates: [-97.74, 30.27] };
    expect(
      conflictingForms({
        startAt: '2031-06-14T15:00:00Z',
        endLocal: '2031-06-14T18:00',
        venue: { lat: 30.27, lng: -97.74 },
        schedule: [{ name: 'Finals', startAt: '2031-06-14T20:00:00Z' }],
      }),
    ).toEqual([]);
    expect(
      conflictingForms({
        startAt: '2031-06-14T15:00:00Z',
        startLocal: '2031-06-14T10:00',
        venue: { lat: 30.27, location: point },
        schedule: [{ name: 'Heats' }, { name: 'Finals', endAt: '2031-06-14T20:00:00Z', endLocal: '2031-06-14T15:00' }],
      }),
    ).toEqual([
      { field: 'startAt', message: 'conflicts with startLocal: give one form, not both' },
      { field: 'startLocal', message: 'conflicts with startAt: give one form, not both' },
      { field: 'venue.location', message: 'conflicts with venue.lat: give one form, not both' },
      { field: 'venue.lat', message: 'conflicts with venue.location: give one form, not both' },
      { field: 'schedule.1.endAt', message: 'conflicts with schedule.1.endLocal: give one form, not both' },
      { field: 'schedule.1.endLocal', message: 'conflicts with schedule.1.endAt: give one form, not both' },
    ]);
  });

  it('stores the target shape, pending, with a dedupe key of its own', () => {
    const [id, userId, now] = [new ObjectId(), new ObjectId(), new Date('2031-01-01T00:00:00Z')];
    const doc = submissionDocument(
      {
        title: 'Bowl Jam',
        sports: ['skateboarding'],
        startLocal: '2031-06-14T10:00',
        timezone: 'America/Chicago',
        venue: { city: 'Austin', lat: 30.27, lng: -97.74 },
      },
      { startAt: new Date('2031-06-14T15:00:00Z') },
      { id, userId, now },
    );
    expect(doc).toMatchObject({
      approvalStatus: 'pending',
      schemaVersion: 2,
      source: 'community',
      submittedBy: userId,
      dedupeKey: `bowl jam|2031-06-14|austin|submission:${id.toHexString()}`,
      venue: { city: 'Austin', location: { type: 'Point', coordinates: [-97.74, 30.27] } },
      participation: { registrationStatus: null, inviteOnly: false, divisions: [] },
      status: 'scheduled',
    });
    expect(doc.sourceTrust).toBeLessThan(0.5);
  });
});

describe('editSet (worker/events/desk/edit.ts)', () => {
  const stored = {
    _id: new ObjectId(),
    venue: { name: 'Park', city: 'Austin' },
    participation: null,
  } as unknown as EventDoc;

  it('moves lat/lng with a GeoJSON point given for the venue', () => {
    const set = editSet(stored, { venue: { location: { type: 'Point', coordinates: [-96.8, 32.78] } } }, {});
    expect(set).toEqual({
      'venue.lat': 32.78,
      'venue.lng': -96.8,
      'venue.location': { type: 'Point', coordinates: [-96.8, 32.78] },
    });
  });

  it('edits a stored nested object field by field, writes a missing one whole, and moves the point with lat/lng', () => {
    expect(
      editSet(
        stored,
        {
          title: 'New',
          status: 'cancelled',
          website: 'https://example.com',
          venue: { city: 'Dallas', lat: 32.78, lng: -96.8 },
          participation: { registrationStatus: 'closed' },
        },
        { startAt: day },
      ),
    ).toEqual({
      title: 'New',
      status: 'cancelled',
      sourceUrl: 'https://example.com',
      startAt: day,
      'venue.city': 'Dallas',
      'venue.lat': 32.78,
      'venue.lng': -96.8,
      'venue.location': { type: 'Point', coordinates: [-96.8, 32.78] },
      participation: expect.objectContaining({ registrationStatus: 'closed', inviteOnly: false }),
    });
  });
});
