import { Decimal128, Long, ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { readPublicUser, readUser, UNNAMED_RIDER } from '../../../worker/accounts/users/read-user';

describe('readUser', () => {
  it('reads ids, dates, counts and flags as older code stored them', () => {
    const id = new ObjectId();
    const user = readUser({
      _id: id.toHexString(),
      name: '  Old Rider ',
      email: 'old@example.com',
      createdAt: '2019-01-02T03:04:05Z',
      updatedAt: 1_600_000_000,
      tokenVersion: '3',
      emailVerified: 'true',
      isBot: 0,
      role: 'admin',
      revokedSessions: [{ sid: 'a', until: '2030-01-01' }, { sid: 4 }, 'junk'],
      __v: 2,
    })!;
    expect(user._id.equals(id)).toBe(true);
    expect(user).toMatchObject({
      name: 'Old Rider',
      tokenVersion: 3,
      emailVerified: true,
      isBot: false,
      role: 'admin',
      createdAt: new Date('2019-01-02T03:04:05Z'),
      updatedAt: new Date(1_600_000_000_000),
      revokedSessions: [{ sid: 'a', until: new Date('2030-01-01') }],
      __v: 2,
    });
  });

  it('gives an account without a usable name, email, role or dates the documented defaults', () => {
    const id = new ObjectId();
    const user = readUser({ _id: id, name: { first: 'x' }, email: null, role: 'superuser', password: '' })!;
    expect(user).toMatchObject({ name: UNNAMED_RIDER, email: '', role: null, createdAt: id.getTimestamp() });
    expect(user.updatedAt).toEqual(id.getTimestamp());
    expect('password' in user).toBe(false);
    expect('tokenVersion' in user).toBe(false);
  });

  it('reads a subscription with its renewal as a date, and none without a plan and status', () => {
    const id = new ObjectId();
    expect(
      readUser({
        _id: id,
        subscription: { plan: 'premium', status: 'active', renewsAt: '2027-05-06', interval: 'week' },
      })!.subscription,
    ).toEqual({ plan: 'premium', status: 'active', renewsAt: new Date('2027-05-06') });
    expect(readUser({ _id: id, subscription: { plan: 'premium' } })!.subscription).toBeUndefined();
    expect(readUser({ _id: id, subscription: 'premium' })!.subscription).toBeUndefined();
  });

  it('reads numbers stored as BSON wrappers and leaves another domain’s fields as stored', () => {
    const user = readUser({
      _id: new ObjectId(),
      tokenVersion: Long.fromNumber(2),
      followerCount: Decimal128.fromString('5'),
    })!;
    expect(user.tokenVersion).toBe(2);
    expect(String(user.followerCount)).toBe('5');
  });

  it('reads no account from a document whose _id names none', () => {
    expect(readUser({ _id: 12345, name: 'x' })).toBeUndefined();
    expect(readUser({ name: 'x' })).toBeUndefined();
    expect(readPublicUser({ _id: 'not-an-id' })).toBeUndefined();
  });

  it('reads the public fields: a name whatever was stored, a picture only when it is text', () => {
    const id = new ObjectId();
    expect(readPublicUser({ _id: id, name: 99, imageUri: null })).toEqual({ _id: id, name: '99' });
    expect(readPublicUser({ _id: id, imageUri: 'https://x.test/a.jpg' })).toEqual({
      _id: id,
      name: UNNAMED_RIDER,
      imageUri: 'https://x.test/a.jpg',
    });
  });
});

describe('readUser: a suspension', () => {
  const id = new ObjectId();

  it('reads one as stored, and one older code could not have stored leaves the rider unsuspended', () => {
    const by = new ObjectId();
    const at = new Date('2026-12-01T10:00:00Z');
    const until = new Date('2026-12-31T00:00:00Z');
    expect(readUser({ _id: id, suspension: { until, reason: 'spam', by, at } })!.suspension).toEqual({
      until,
      reason: 'spam',
      by,
      at,
    });
    expect(readUser({ _id: id })!.suspension).toBeUndefined();
    expect(readUser({ _id: id, suspension: 'yes' })!.suspension).toBeUndefined();
  });

  it('reads an unreadable end as until lifted and a missing reason as empty, so a broken field never frees a rider', () => {
    expect(readUser({ _id: id, suspension: { until: 'soon', by: 'nobody' } })!.suspension).toEqual({
      until: null,
      reason: '',
    });
    expect(
      readUser({ _id: id, suspension: { until: '2027-01-01T00:00:00Z', reason: { text: 'x' } } })!.suspension,
    ).toEqual({
      until: new Date('2027-01-01T00:00:00Z'),
      reason: '',
    });
  });
});
