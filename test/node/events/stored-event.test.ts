import { Decimal128, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { readEvent, readEventSave } from '../../../worker/events/stored-event';
import { EVENTS_STORED_SHAPES } from '../../../worker/events/stored-shapes';
import { examineDocument } from '../../../worker/platform/db/stored-shapes';

// The one reader of stored events and saves (worker/events/stored-event.ts), and its agreement with the
// table the data doctor repairs by (worker/events/stored-shapes.ts).

const id = new ObjectId();

/** An event as older code and other sources left one. */
const legacy = () => ({
  _id: id.toHexString(),
  title: 12345,
  sports: 'bmx',
  startAt: '2026-07-04T12:00:00Z',
  endAt: 1_783_166_400_000,
  createdAt: 'not a date',
  updatedAt: String(Date.UTC(2022, 0, 2)),
  timeTba: 'true',
  status: 42,
  venue: {
    name: 7,
    city: 42,
    lat: '30.25',
    lng: Decimal128.fromString('-97.75'),
    spotId: new ObjectId().toHexString(),
  },
  organizer: 'Org',
  relationshipCounts: { going: '3', interested: 'lots' },
  possibleDuplicateOf: id.toHexString(),
  submittedBy: 'nobody',
  review: { decision: 'approve', at: '2024-01-01T00:00:00Z', by: id.toHexString() },
  __v: 3,
});

describe('reading a stored event', () => {
  it('reads dates, ids, numbers and lists as older code stored them, and defaults what it cannot use', () => {
    expect(readEvent(legacy())).toMatchObject({
      _id: id,
      title: '12345',
      sports: ['bmx'],
      startAt: new Date('2026-07-04T12:00:00Z'),
      endAt: new Date(1_783_166_400_000),
      createdAt: id.getTimestamp(),
      updatedAt: new Date(Date.UTC(2022, 0, 2)),
      timeTba: true,
      status: null,
      venue: { name: '7', city: '42', lat: 30.25, lng: -97.75, spotId: expect.any(ObjectId) },
      organizer: null,
      relationshipCounts: { going: 3, interested: 0, competing: 0, watching_online: 0 },
      possibleDuplicateOf: [id],
      review: { decision: 'approve', at: new Date('2024-01-01T00:00:00Z'), by: id, reason: null },
    });
    const read = readEvent(legacy())!;
    expect('submittedBy' in read).toBe(false);
    expect('__v' in read).toBe(false);
  });

  it('cannot read an event with no usable id', () => {
    expect(readEvent({ _id: 12, title: 'x' })).toBeUndefined();
    expect(readEvent('x')).toBeUndefined();
  });

  it('reads the same event before and after the data doctor repairs it', () => {
    const doc: Record<string, unknown> = { ...legacy(), _id: id };
    const repaired: Record<string, unknown> = { ...legacy(), _id: id };
    for (const finding of examineDocument(doc, EVENTS_STORED_SHAPES.events)) {
      if (!finding.repair) continue;
      const keys = finding.at.split('.');
      const parent = keys.slice(0, -1).reduce((at, key) => at[key] as Record<string, unknown>, repaired);
      parent[keys[keys.length - 1]!] = finding.repair.value;
    }
    expect(repaired.startAt).toBeInstanceOf(Date);
    expect(readEvent(repaired)).toEqual(readEvent(doc));
  });
});

describe('reading a stored event save', () => {
  it('gives ids as hex text whichever form they were stored in', () => {
    const [userId, eventId] = [new ObjectId(), new ObjectId()];
    expect(
      readEventSave({ _id: id, userId, eventId: eventId.toHexString(), createdAt: '2020-05-05T00:00:00Z' }),
    ).toEqual({
      _id: id,
      userId: userId.toHexString(),
      eventId: eventId.toHexString(),
      createdAt: new Date('2020-05-05T00:00:00Z'),
    });
    expect(readEventSave({ _id: id, userId, eventId: 'gone' })).toBeUndefined();
  });
});
