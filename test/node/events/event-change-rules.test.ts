import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { changeKeyOf, materialChanges } from '../../../worker/events/changes/material';
import {
  circleCells,
  eventKeys,
  haversineKm,
  matches,
  type SubscriptionCriteria,
  subscriptionKeys,
} from '../../../worker/events/subscriptions/match-keys';

const base = {
  startAt: new Date('2026-06-01T10:00:00Z'),
  endAt: null,
  status: 'scheduled' as const,
  venue: { name: 'House Park', city: 'Austin', lat: 30.27, lng: -97.74 },
  participation: { registrationStatus: 'open' },
};

describe('material changes of an event (worker/events/changes/material.ts)', () => {
  it('names each changed material field with its before and after', () => {
    const after = {
      ...base,
      startAt: new Date('2026-06-01T12:00:00Z'),
      participation: { registrationStatus: 'closed' },
    };
    expect(materialChanges(base, after)).toEqual([
      { field: 'startAt', before: base.startAt, after: after.startAt },
      { field: 'registrationStatus', before: 'open', after: 'closed' },
    ]);
  });

  it('ignores what is not material: the title, a linked spot, the point moving by a metre, a Date equal by value', () => {
    const after = {
      ...base,
      title: 'New title',
      startAt: new Date(base.startAt.getTime()),
      venue: { ...base.venue, lat: 30.270001, spotId: new ObjectId() },
    };
    expect(materialChanges(base, after)).toEqual([]);
  });

  it('a venue move, a new GeoJSON point or city, is one venue change', () => {
    const after = {
      ...base,
      venue: {
        ...base.venue,
        name: 'Bowl',
        location: { type: 'Point' as const, coordinates: [-97.8, 30.3] as [number, number] },
      },
    };
    const [change] = materialChanges(base, after);
    expect(change).toMatchObject({
      field: 'venue',
      before: { name: 'House Park' },
      after: { name: 'Bowl', coordinates: [-97.8, 30.3] },
    });
  });

  it('a cancellation is a change; the clock completing an event is not', () => {
    expect(materialChanges(base, { ...base, status: 'cancelled' as never }).map((c) => c.field)).toEqual(['status']);
    expect(materialChanges(base, { ...base, status: 'completed' })).toEqual([]);
  });

  it('the change key is the same for the same write, and differs for another write', () => {
    const changes = materialChanges(base, { ...base, endAt: new Date('2026-06-02T00:00:00Z') as never });
    const at = new Date('2026-05-01T00:00:00Z');
    expect(changeKeyOf('e1', changes, at)).toBe(changeKeyOf('e1', changes, new Date(at)));
    expect(changeKeyOf('e1', changes, new Date(at.getTime() + 1))).not.toBe(changeKeyOf('e1', changes, at));
  });
});

const sub = (fields: Partial<SubscriptionCriteria>): SubscriptionCriteria => ({
  sports: [],
  disciplines: [],
  eventKinds: [],
  intents: [],
  level: [],
  place: null,
  organizerId: null,
  ...fields,
});
const place = (lat: number, lng: number, radiusKm: number) => ({
  location: { type: 'Point' as const, coordinates: [lng, lat] as [number, number] },
  radiusKm,
  label: null,
});

describe('subscription matching (worker/events/subscriptions/match-keys.ts)', () => {
  const event = { sports: ['skateboarding'], intents: ['compete'], venue: { lat: 30.27, lng: -97.74 } };

  it('every criterion set must hold; any one value of a list is enough', () => {
    expect(matches(sub({ sports: ['bmx', 'Skateboarding'] }), event)).toBe(true);
    expect(matches(sub({ sports: ['bmx'] }), event)).toBe(false);
    expect(matches(sub({ sports: ['skateboarding'], intents: ['spectate_online'] }), event)).toBe(false);
  });

  it('a place matches within its radius only', () => {
    // Austin to San Antonio is about 118 km.
    const sanAntonio = { lat: 29.42, lng: -98.49 };
    expect(haversineKm({ lat: 30.27, lng: -97.74 }, sanAntonio)).toBeGreaterThan(110);
    expect(matches(sub({ place: place(sanAntonio.lat, sanAntonio.lng, 150) }), event)).toBe(true);
    expect(matches(sub({ place: place(sanAntonio.lat, sanAntonio.lng, 100) }), event)).toBe(false);
  });

  it('a matching subscription is always stored under a key the event looks for (the index finds it)', () => {
    const keys = new Set(eventKeys(event));
    const found = (s: SubscriptionCriteria) => subscriptionKeys(s).some((k) => keys.has(k));
    // Many circles around the event, of every radius, at every bearing: each one that matches is found.
    for (const radiusKm of [1, 5, 30, 120, 499]) {
      for (let bearing = 0; bearing < 360; bearing += 30) {
        const d = (radiusKm * 0.95) / 111.2;
        const center = {
          lat: 30.27 + d * Math.cos((bearing * Math.PI) / 180),
          lng: -97.74 + (d * Math.sin((bearing * Math.PI) / 180)) / Math.cos((30.27 * Math.PI) / 180),
        };
        const s = sub({ sports: ['skateboarding'], place: place(center.lat, center.lng, radiusKm) });
        if (matches(s, event)) expect(found(s), `${radiusKm} km at ${bearing}°`).toBe(true);
      }
    }
    expect(found(sub({ sports: ['skateboarding'] }))).toBe(true);
    expect(found(sub({ intents: ['compete'] }))).toBe(true);
  });

  it('near the pole and across the antimeridian the circle still covers the event', () => {
    const arctic = { sports: ['snowboarding'], venue: { lat: 78.2, lng: 15.6 } };
    const s = sub({ place: place(78.5, 20, 150) });
    expect(matches(s, arctic)).toBe(true);
    expect(subscriptionKeys(s).some((k) => eventKeys(arctic).includes(k))).toBe(true);
    const fiji = { venue: { lat: -17.8, lng: 179.9 } };
    const across = sub({ place: place(-17.8, -179.9, 50) });
    expect(matches(across, fiji)).toBe(true);
    expect(subscriptionKeys(across).some((k) => eventKeys(fiji).includes(k))).toBe(true);
  });

  it('a circle is stored under a handful of cells, not hundreds', () => {
    for (const radiusKm of [1, 50, 500])
      expect(circleCells({ lat: 45, lng: 7 }, radiusKm).length).toBeLessThanOrEqual(16);
  });
});
