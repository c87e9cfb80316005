import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { readEventNotificationJob, readEventSubscription } from '../../../worker/events/stored-subscription';

// The reader of stored subscriptions and notification jobs over what older code left.

const [id, owner, subscription] = [new ObjectId(), new ObjectId(), new ObjectId()];

describe('readEventSubscription', () => {
  it('reads lone values, odd names, places and dates into the documented shape', () => {
    const read = readEventSubscription({
      _id: id.toHexString(),
      userId: owner,
      name: ['Bowls'],
      sports: 'bmx',
      level: [null, 'pro', 3],
      intents: { 0: 'compete' },
      place: { location: { type: 'Point', coordinates: ['2.35', 48.85] }, radiusKm: '25' },
      organizerId: 'nope',
      lastDigestAt: '',
      version: '3',
      createdAt: 1_600_000_000_000,
    });
    expect(read).toMatchObject({
      _id: id,
      userId: owner,
      name: null,
      sports: ['bmx'],
      disciplines: [],
      eventKinds: [],
      intents: ['compete'],
      level: ['pro', '3'],
      place: { location: { type: 'Point', coordinates: [2.35, 48.85] }, radiusKm: 25, label: null },
      organizerId: null,
      lastDigestAt: null,
      version: 3,
      createdAt: new Date(1_600_000_000_000),
      updatedAt: new Date(1_600_000_000_000),
    });
  });

  it('reads a place without a point or a positive radius as none, and one with no id or owner as unreadable', () => {
    expect(readEventSubscription({ _id: id, userId: owner, place: { radiusKm: 5 } })?.place).toBeNull();
    expect(
      readEventSubscription({ _id: id, userId: owner, place: { location: { coordinates: [1, 2] } } })?.place,
    ).toBeNull();
    expect(readEventSubscription({ _id: 'legacy', userId: owner })).toBeUndefined();
    expect(readEventSubscription({ _id: id, userId: null })).toBeUndefined();
    expect(readEventSubscription(null)).toBeUndefined();
  });
});

describe('readEventNotificationJob', () => {
  const base = { _id: id, userId: owner, jobKey: 'k', status: 'pending' };

  it('reads a change and a digest, with counts and ids as stored by older code', () => {
    expect(
      readEventNotificationJob({ ...base, kind: 'change', eventId: subscription.toHexString(), attemptCount: '2' }),
    ).toMatchObject({ kind: 'change', eventId: subscription, attemptCount: 2, fields: [], eventIds: [] });
    expect(
      readEventNotificationJob({ ...base, kind: 'digest', subscriptionId: subscription, attemptCount: null }),
    ).toMatchObject({ kind: 'digest', subscriptionId: subscription, attemptCount: 0, windowAt: null });
  });

  it('cannot read a job without a known kind, a rider, a key, or what its kind is about', () => {
    for (const kind of [undefined, null, '', 'other'])
      expect(readEventNotificationJob({ ...base, kind, subscriptionId: subscription })).toBeUndefined();
    expect(readEventNotificationJob({ ...base, kind: 'digest', eventIds: [subscription] })).toBeUndefined();
    expect(readEventNotificationJob({ ...base, kind: 'change' })).toBeUndefined();
    expect(readEventNotificationJob({ ...base, kind: 'change', eventId: id, userId: 'x' })).toBeUndefined();
    expect(readEventNotificationJob({ ...base, kind: 'change', eventId: id, jobKey: '' })).toBeUndefined();
  });
});
