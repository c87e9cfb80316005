import { Decimal128, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { repairOf } from '../../../scripts/data-doctor';
import { formatDoctorReport } from '../../../scripts/data-doctor-report';
import { COLLECTION_NAMES, STORED_SHAPES } from '../../../worker/data';
import {
  classifyValue,
  collidingEmails,
  examineDocument,
  type StoredShape,
} from '../../../worker/platform/db/stored-shapes';

// The data doctor's rules (worker/platform/db/stored-shapes.ts): what a stored value is, and its safe repair.

const id = new ObjectId();
const hex = id.toHexString();

describe('classifying one stored value against its kind', () => {
  it('accepts what the service stores, and absent or null values', () => {
    const good: [unknown, Parameters<typeof classifyValue>[1]][] = [
      [new Date(), 'date'],
      [id, 'id'],
      [[id], 'ids'],
      [hex, 'hexId'],
      [12.5, 'number'],
      ['text', 'text'],
      [['a'], 'texts'],
      [false, 'boolean'],
      ['rider@example.com', 'email'],
    ];
    for (const [value, kind] of good) expect(classifyValue(value, kind)).toBeUndefined();
    for (const kind of ['date', 'id', 'number', 'email'] as const) {
      expect(classifyValue(undefined, kind)).toBeUndefined();
      expect(classifyValue(null, kind)).toBeUndefined();
    }
  });

  it('repairs dates stored as ISO text or epoch milliseconds, and lists an unreadable date', () => {
    expect(classifyValue('2021-03-04T05:06:07Z', 'date')).toEqual({
      problem: 'date stored as text',
      repair: { value: new Date('2021-03-04T05:06:07Z') },
    });
    expect(classifyValue(1_600_000_000_000, 'date')).toEqual({
      problem: 'date stored as a number',
      repair: { value: new Date(1_600_000_000_000) },
    });
    expect(classifyValue('soon', 'date')).toEqual({ problem: 'unreadable date' });
    expect(classifyValue('', 'date')).toEqual({ problem: 'unreadable date' });
  });

  it('repairs ids stored as hex text to ObjectIds, and the Live hex ids stored as ObjectIds to text', () => {
    expect(classifyValue(hex.toUpperCase(), 'id')).toEqual({ problem: 'id stored as text', repair: { value: id } });
    expect(classifyValue('nobody', 'id')).toEqual({ problem: 'unreadable id' });
    expect(classifyValue(id, 'hexId')).toEqual({ problem: 'id stored as an ObjectId', repair: { value: hex } });
    expect(classifyValue([hex, id], 'ids')).toEqual({ problem: 'id stored as text', repair: { value: [id, id] } });
    expect(classifyValue(hex, 'ids')).toEqual({ problem: 'list stored as one value', repair: { value: [id] } });
    expect(classifyValue([hex, 'nope'], 'ids')).toEqual({ problem: 'unreadable id' });
  });

  it('repairs numbers stored as text or Decimal128, but never rounds one a double cannot hold', () => {
    expect(classifyValue('12', 'number')).toEqual({ problem: 'number stored as text', repair: { value: 12 } });
    expect(classifyValue(Decimal128.fromString('3.5'), 'number')).toEqual({
      problem: 'number stored as Decimal128 or Int64',
      repair: { value: 3.5 },
    });
    expect(classifyValue(Long.fromString('9007199254740993'), 'number')).toEqual({
      problem: 'number stored as Decimal128 or Int64',
    });
    expect(classifyValue('twelve', 'number')).toEqual({ problem: 'unreadable number' });
  });

  it('trims and lower-cases an email, and lists one that is no text', () => {
    expect(classifyValue(' Rider@Example.COM ', 'email')).toEqual({
      problem: 'email with spaces or capitals',
      repair: { value: 'rider@example.com' },
    });
    expect(classifyValue(42, 'email')).toEqual({ problem: 'unreadable email' });
  });

  it('makes a lone text a list of one, and lists a number where text belongs without changing it', () => {
    expect(classifyValue('bmx', 'texts')).toEqual({ problem: 'list stored as one value', repair: { value: ['bmx'] } });
    expect(classifyValue(42, 'text')).toEqual({ problem: 'text stored as another type' });
    expect(classifyValue('yes', 'boolean')).toEqual({ problem: 'unreadable boolean' });
  });
});

describe('examining one document against its table', () => {
  const shape: StoredShape = {
    _id: 'id',
    createdAt: 'date',
    'venue.lat': 'number',
    'stays.$._id': 'hexId',
    'stays.$.createdAt': 'date',
    'stays.$.rating': 'number',
    words: { what: 'the words of name', from: ['name'], derived: (doc) => String(doc.name).split(' ') },
  };

  it('repairs nested fields and every element of a list in one write of the whole list', () => {
    const stayId = new ObjectId();
    const doc = {
      _id: id,
      name: 'a b',
      words: ['a', 'b'],
      venue: { lat: '30.5' },
      stays: [
        { _id: stayId, createdAt: '2022-01-01T00:00:00Z' },
        { _id: hex, createdAt: new Date(0), rating: 'great' },
      ],
    };
    const findings = examineDocument(doc, shape);
    const repairedStays = [{ _id: stayId.toHexString(), createdAt: new Date('2022-01-01T00:00:00Z') }, doc.stays[1]];
    expect(findings).toEqual([
      { problem: 'number stored as text', field: 'venue.lat', at: 'venue.lat', repair: { value: 30.5 } },
      { problem: 'id stored as an ObjectId', field: 'stays.$._id', at: 'stays', repair: { value: repairedStays } },
      { problem: 'date stored as text', field: 'stays.$.createdAt', at: 'stays', repair: { value: repairedStays } },
      { problem: 'unreadable number', field: 'stays.$.rating', at: 'stays' },
    ]);
    expect(doc.stays[0]!._id).toBe(stayId);
  });

  it("lists a document's own id stored as text without repairing it, and repairs a stale derived field", () => {
    const findings = examineDocument({ _id: hex, name: 'x y', words: ['old'] }, shape);
    expect(findings).toEqual([
      { problem: 'id stored as text', field: '_id', at: '_id' },
      { problem: 'search field missing or stale', field: 'words', at: 'words', repair: { value: ['x', 'y'] } },
    ]);
  });

  it('conditions the repair on every repaired value and the fields a derived one comes from, as read', () => {
    const doc = { _id: id, name: 'x y', createdAt: '2020-01-01T00:00:00Z' };
    const op = repairOf(doc, shape, examineDocument(doc, shape));
    expect(op).toEqual({
      updateOne: {
        filter: { _id: id, createdAt: '2020-01-01T00:00:00Z', words: { $exists: false }, name: 'x y' },
        update: { $set: { createdAt: new Date('2020-01-01T00:00:00Z'), words: ['x', 'y'] } },
      },
    });
    expect(repairOf({ _id: id, name: 'a', words: ['a'] }, shape, [])).toBeUndefined();
  });
});

describe('emails that collide once trimmed and lower-cased', () => {
  it('names every document of a colliding address, and none other', () => {
    const colliding = collidingEmails([
      { id: 'a', email: 'Twin@Example.com' },
      { id: 'b', email: ' twin@example.com' },
      { id: 'c', email: 'solo@example.com' },
      { id: 'd', email: null },
    ]);
    expect([...colliding].sort()).toEqual(['a', 'b']);
  });
});

describe('the tables', () => {
  it('give every collection the service stores a table of its stored shapes', () => {
    expect(Object.keys(STORED_SHAPES).sort()).toEqual([...COLLECTION_NAMES].sort());
  });
});

describe('the report', () => {
  it('prints counts and ids per collection and field, and what it will not repair', () => {
    const lines = formatDoctorReport({
      fix: false,
      unknown: ['leftovers'],
      collections: [
        {
          collection: 'users',
          scanned: 30,
          repaired: 0,
          changedMeanwhile: 0,
          resumedAfter: null,
          problems: [
            {
              field: 'email',
              problem: 'email with spaces or capitals',
              repairable: true,
              count: 21,
              ids: ['u1', 'u2'],
            },
            { field: 'createdAt', problem: 'unreadable date', repairable: false, count: 1, ids: ['u3'] },
          ],
        },
      ],
    });
    expect(lines).toEqual([
      'db:doctor (dry run: nothing written; --fix repairs)',
      'users: 30 scanned',
      '  email: email with spaces or capitals: 21 (repairable) ids u1 u2 …and 19 more',
      '  createdAt: unreadable date: 1 (NOT repaired) ids u3',
      "not the service's collections (not checked): leftovers",
      'total: 21 repairable by --fix, 1 not repaired (listed above for an operator)',
    ]);
  });
});
