import { Binary, Decimal128, Double, Int32, Long, ObjectId, Timestamp } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { ANOTHER_RIDER, idsIn, readableDocument, WITHHELD } from '../../../worker/accounts/exports/readable';

const rider = new ObjectId();
const other = new ObjectId();
const context = {
  riderHex: rider.toHexString(),
  riderEmail: 'Me@Example.com',
  others: new Map([[other.toHexString(), ANOTHER_RIDER]]),
};

describe('readableDocument', () => {
  it('reads ids as hex, dates as ISO strings and BSON numbers as JSON numbers', () => {
    const post = new ObjectId();
    expect(
      readableDocument(
        {
          _id: post,
          userId: rider,
          createdAt: new Date('2026-05-01T10:00:00Z'),
          count: new Int32(3),
          big: Long.fromString('9007199254740993'),
          small: Long.fromNumber(12),
          price: Decimal128.fromString('1.10'),
          ratio: new Double(0.5),
          seen: new Timestamp({ t: 1_700_000_000, i: 1 }),
          blob: new Binary(new Uint8Array([1, 2, 3])),
          pattern: /ab+c/i,
        },
        context,
      ),
    ).toEqual({
      _id: post.toHexString(),
      userId: rider.toHexString(),
      createdAt: '2026-05-01T10:00:00.000Z',
      count: 3,
      big: '9007199254740993',
      small: 12,
      price: '1.10',
      ratio: 0.5,
      seen: '2023-11-14T22:13:20.000Z',
      blob: 'AQID',
      pattern: 'ab+c',
    });
  });

  it('keeps dates older code stored as text or numbers as stored, and reads an invalid date as null', () => {
    expect(readableDocument({ a: '2019-01-02', b: 1_600_000_000, c: new Date(Number.NaN) }, context)).toEqual({
      a: '2019-01-02',
      b: 1_600_000_000,
      c: null,
    });
  });

  it('shows another rider as the section shows them, as an id, a hex string, or inside a key', () => {
    const names = { ...context, others: new Map([[other.toHexString(), 'Other Two']]) };
    const key = [rider.toHexString(), other.toHexString()].join('-');
    expect(
      readableDocument(
        { participantIds: [rider, other.toHexString().toUpperCase()], followedId: other, participantKey: key },
        names,
      ),
    ).toEqual({
      participantIds: [rider.toHexString(), 'Other Two'],
      followedId: 'Other Two',
      participantKey: `${rider.toHexString()}-Other Two`,
    });
  });

  it("withholds secrets, other people's addresses, and the fields named withheld", () => {
    expect(
      readableDocument(
        {
          password: '$2a$10$hash',
          tokenHash: 'abc',
          token: 'ExponentPushToken[x]',
          keys: { p256dh: 'k', auth: 'a' },
          nested: { refreshToken: 'r', email: 'someone@else.com' },
          email: 'me@example.com ',
          emailVerified: true,
          note: 'their words',
          revokedAt: null,
        },
        { ...context, withheld: new Set(['note']) },
      ),
    ).toEqual({
      password: WITHHELD,
      tokenHash: WITHHELD,
      token: WITHHELD,
      keys: WITHHELD,
      nested: { refreshToken: WITHHELD, email: WITHHELD },
      email: 'me@example.com ',
      emailVerified: true,
      note: WITHHELD,
      revokedAt: null,
    });
  });

  it('never throws on an odd document: cycles of depth, odd BSON tags, non-finite numbers, symbols', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let n = 0; n < 500; n++) deep = { deep };
    const odd = { _bsontype: 'MinKey' };
    const broken = {
      _bsontype: 'ObjectId',
      toHexString: () => {
        throw new Error('no');
      },
    };
    const read = readableDocument(
      { deep, odd, broken, inf: Number.POSITIVE_INFINITY, sym: Symbol('x'), fn: () => 1 },
      context,
    );
    expect(JSON.parse(JSON.stringify(read))).toMatchObject({
      odd: '[object Object]',
      broken: null,
      inf: 'Infinity',
      sym: null,
      fn: null,
    });
  });
});

describe('idsIn', () => {
  it('finds every id but the rider’s, in ObjectIds and inside strings', () => {
    const post = new ObjectId();
    const found = idsIn(
      { userId: rider, postId: post, key: `${other.toHexString()}:2026`, list: [rider.toHexString()] },
      rider.toHexString(),
    );
    expect([...found].sort()).toEqual([post.toHexString(), other.toHexString()].sort());
  });
});
