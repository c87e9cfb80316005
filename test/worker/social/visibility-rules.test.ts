import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { accountHidden, heldFrom, postAudience } from '../../../worker/social/visibility';

const now = new Date('2026-06-01T12:00:00Z');
const suspended = (until: unknown) => ({ suspension: { until, reason: 'abuse', by: new ObjectId(), at: now } });

describe('whether an account hides its rider from others', () => {
  it('does while suspended indefinitely or until a later time, or withheld', () => {
    expect(accountHidden(suspended(null), now)).toBe(true);
    expect(accountHidden({ suspension: { reason: 'abuse' } }, now)).toBe(true);
    expect(accountHidden(suspended(new Date('2026-06-01T12:00:01Z')), now)).toBe(true);
    expect(accountHidden({ withheld: { reason: 'reports', at: now } }, now)).toBe(true);
  });

  it('does not once the end has passed, without either mark, or with them unset to null', () => {
    expect(accountHidden(suspended(new Date('2026-06-01T12:00:00Z')), now)).toBe(false);
    expect(accountHidden({}, now)).toBe(false);
    expect(accountHidden({ suspension: null, withheld: null }, now)).toBe(false);
    expect(accountHidden(null, now)).toBe(false);
  });

  it('keeps a rider hidden whose suspension end cannot be read', () => {
    expect(accountHidden(suspended('next week'), now)).toBe(true);
  });
});

describe('held content', () => {
  const author = new ObjectId();
  it('is held from everyone but its author (posts and comments by userId, media by ownerId)', () => {
    const post = { userId: author, withheld: { reason: 'review', at: now } };
    expect(heldFrom(post, null)).toBe(true);
    expect(heldFrom(post, new ObjectId())).toBe(true);
    expect(heldFrom(post, author)).toBe(false);
    expect(heldFrom({ ...post, userId: author.toHexString() }, author)).toBe(false);
    expect(heldFrom({ ownerId: author, withheld: { reason: 'review' } }, author)).toBe(false);
    expect(heldFrom({ userId: author }, null)).toBe(false);
  });

  it("reaches in real time only its author, as a hidden author's post does; others reach all but the blocked", () => {
    const held = { userId: author, withheld: { reason: 'review', at: now } };
    expect(postAudience(held, false, ['a'])).toEqual({ riders: [author.toHexString()] });
    expect(postAudience({ userId: author }, true, ['a'])).toEqual({ riders: [author.toHexString()] });
    expect(postAudience({ userId: author }, false, ['a'])).toEqual({ everyoneBut: ['a'] });
  });
});
