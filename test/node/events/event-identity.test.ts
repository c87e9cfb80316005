import { describe, expect, it } from 'vitest';
import { dayAtNoonUtc, eventDedupeKey, eventSlug, normalizeText } from '../../../worker/events/catalog/identity';

describe('event identity', () => {
  it('normalizes case, accents and punctuation so the same event from two sources has one key', () => {
    const a = eventDedupeKey({
      title: 'Rock & Roll Jam!',
      startAt: new Date('2026-12-17T12:00:00Z'),
      city: 'São Paulo',
    });
    const b = eventDedupeKey({ title: 'rock  roll jam', startAt: new Date('2026-12-17T18:30:00Z'), city: 'SAO PAULO' });
    expect(a).toBe('rock roll jam|2026-12-17|sao paulo');
    expect(b).toBe(a);
  });

  it('leaves the date and city parts empty when they are unknown', () => {
    expect(eventDedupeKey({ title: 'Online Clinic', startAt: null, city: undefined })).toBe('online clinic||');
    expect(normalizeText(null)).toBe('');
  });

  it('adds a six-character MD5-derived suffix of the dedupe key to the title slug', () => {
    expect(eventSlug('Mini Ramp Mayhem', 'mini ramp mayhem|2026-12-17|austin')).toMatch(
      /^mini-ramp-mayhem-[0-9a-f]{6}$/,
    );
    const one = eventSlug('Jam', 'jam|2026-12-17|austin');
    const other = eventSlug('Jam', 'jam|2026-12-18|austin');
    expect(one).not.toBe(other);
    expect(eventSlug('🛹', 'x||')).toMatch(/^[0-9a-f]{6}$/);
  });

  it('stores a calendar date at noon UTC and refuses impossible dates', () => {
    expect(dayAtNoonUtc('2026-02-28')?.toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(dayAtNoonUtc('2026-02-30')).toBeNull();
    expect(dayAtNoonUtc('Feb 3')).toBeNull();
  });
});
