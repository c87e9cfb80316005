import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { classifyEvent } from '../../../worker/growth/analytics/classify';
import { EnvelopeFields } from '../../../worker/growth/analytics/envelope';

// classifyEvent builds a stored event field by field; this holds it to the document the object spread built before,
// `{ _id, ...rest, eventId, name, occurredAt, receivedAt, userId, anonymousId, authenticated, properties }`: the same
// fields, values and order (BSON keeps the order), whichever optional fields an envelope carries.

const caller = new ObjectId();
const receivedAt = new Date();
const full = {
  eventId: 'AAAAAAAA-0000-4000-8000-000000000001',
  name: 'spot_viewed',
  occurredAt: new Date(receivedAt.getTime() - 60_000).toISOString(),
  anonymousId: 'install-1',
  userId: caller.toHexString(),
  sessionId: crypto.randomUUID(),
  platform: 'ios',
  appVersion: '2.3.1',
  buildNumber: 231,
  schemaVersion: 1,
  source: { firstTouch: 'google', utmSource: null, landingPath: '/spots/x' },
  properties: { spotId: new ObjectId().toHexString() },
  ignored: 'never stored',
};

/** The stored event as the spread built it. */
function spreadDoc(raw: Record<string, unknown>, signedIn: ObjectId | null) {
  const data = EnvelopeFields.parse(raw);
  const { eventId, occurredAt, anonymousId, userId, properties, ...rest } = data;
  return {
    ...rest,
    eventId: eventId.toLowerCase(),
    name: data.name,
    occurredAt: new Date(Date.parse(occurredAt)),
    receivedAt,
    userId: userId ? signedIn : null,
    anonymousId: anonymousId ?? null,
    authenticated: signedIn !== null,
    properties,
  };
}

describe('classifyEvent builds the stored event', () => {
  const { userId: _, ...anonymous } = full;
  const cases: [string, Record<string, unknown>, ObjectId | null][] = [
    ['every field, signed in', full, caller],
    ['anonymous', anonymous, null],
    ['anonymous, signed-in client', anonymous, caller],
    ['only the required fields', { ...anonymous, sessionId: undefined, platform: undefined, source: undefined }, null],
    [
      'optional fields absent',
      Object.fromEntries(Object.entries(anonymous).filter(([key]) => !['platform', 'buildNumber'].includes(key))),
      null,
    ],
  ];
  it.each(cases)('%s: the same fields, values and order as the spread', (_label, raw, signedIn) => {
    const sorted = classifyEvent(structuredClone(raw), signedIn, receivedAt);
    expect(sorted.kind).toBe('event');
    const { _id, ...doc } = sorted.doc as unknown as Record<string, unknown>;
    expect(_id).toBeInstanceOf(ObjectId);
    const expected = spreadDoc(raw, signedIn);
    expect(doc).toStrictEqual(expected);
    expect(Object.keys(sorted.doc)).toEqual(['_id', ...Object.keys(expected)]);
  });
});
