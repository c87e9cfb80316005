import { describe, expect, it } from 'vitest';
import { isQuietAt } from '../../../worker/notifications/preferences/quiet-hours';
import { fitBody, fitTitle } from '../../../worker/notifications/push/text';

// These run inside workerd: quiet hours must hold with the Worker runtime's own time-zone data.
const night = (timezone: string) => ({ start: '21:00', end: '09:00', timezone });

describe('isQuietAt', () => {
  it('spans midnight in Europe/Berlin: quiet from 21:00 to just before 09:00 local', () => {
    const berlin = night('Europe/Berlin');
    // June: Berlin is UTC+2.
    expect(isQuietAt(berlin, new Date('2026-06-15T18:59:00Z'))).toBe(false); // 20:59
    expect(isQuietAt(berlin, new Date('2026-06-15T19:00:00Z'))).toBe(true); // 21:00
    expect(isQuietAt(berlin, new Date('2026-06-15T22:30:00Z'))).toBe(true); // 00:30
    expect(isQuietAt(berlin, new Date('2026-06-16T06:59:00Z'))).toBe(true); // 08:59
    expect(isQuietAt(berlin, new Date('2026-06-16T07:00:00Z'))).toBe(false); // 09:00
  });

  it('evaluates the same instant differently in America/Los_Angeles', () => {
    const at = new Date('2026-06-15T19:30:00Z'); // 21:30 in Berlin, 12:30 in Los Angeles
    expect(isQuietAt(night('Europe/Berlin'), at)).toBe(true);
    expect(isQuietAt(night('America/Los_Angeles'), at)).toBe(false);
    expect(isQuietAt(night('America/Los_Angeles'), new Date('2026-06-16T05:00:00Z'))).toBe(true); // 22:00
  });

  it('follows the DST change in America/New_York: the window ends at 09:00 on the new wall clock', () => {
    const ny = night('America/New_York');
    // Before the change (EST, UTC-5): 13:30Z is 08:30, quiet; 14:00Z is 09:00, not.
    expect(isQuietAt(ny, new Date('2026-03-07T13:30:00Z'))).toBe(true);
    expect(isQuietAt(ny, new Date('2026-03-07T14:00:00Z'))).toBe(false);
    // After 2026-03-08 02:00 (EDT, UTC-4): 13:30Z is 09:30, no longer quiet; a fixed -5 offset would say 08:30.
    expect(isQuietAt(ny, new Date('2026-03-09T13:30:00Z'))).toBe(false);
    expect(isQuietAt(ny, new Date('2026-03-09T12:59:00Z'))).toBe(true); // 08:59
  });

  it('follows the autumn DST change in Europe/Berlin on the night itself', () => {
    const berlin = { start: '01:00', end: '03:00', timezone: 'Europe/Berlin' };
    // 2026-10-25: 03:00 CEST becomes 02:00 CET; 01:30Z is 02:30 CET, still inside.
    expect(isQuietAt(berlin, new Date('2026-10-25T01:30:00Z'))).toBe(true);
    expect(isQuietAt(berlin, new Date('2026-10-25T02:00:00Z'))).toBe(false); // 03:00 CET
  });

  it('treats a window that does not span midnight, and an empty one (start equals end)', () => {
    const day = { start: '09:00', end: '17:00', timezone: 'UTC' };
    expect(isQuietAt(day, new Date('2026-06-15T12:00:00Z'))).toBe(true);
    expect(isQuietAt(day, new Date('2026-06-15T18:00:00Z'))).toBe(false);
    expect(isQuietAt({ start: '22:00', end: '22:00', timezone: 'UTC' }, new Date('2026-06-15T22:00:00Z'))).toBe(false);
  });
});

describe('fitTitle and fitBody', () => {
  it('keeps a short text as one line, whitespace collapsed', () => {
    expect(fitTitle('  Sam \n Rider ')).toBe('Sam Rider');
    expect(fitBody('see\nyou\tthere')).toBe('see you there');
  });

  it('cuts on a word boundary with an ellipsis within 30 and 80 characters', () => {
    const title = fitTitle('Alexandra Montgomery-Smithson the Third');
    expect(title).toBe('Alexandra Montgomery-Smithson…');
    expect(Array.from(title).length).toBeLessThanOrEqual(30);
    const body = fitBody(`${'word '.repeat(30)}end`);
    expect(Array.from(body).length).toBeLessThanOrEqual(80);
    expect(body.endsWith('word…')).toBe(true);
  });

  it('cuts a single overlong word mid-word and never splits an emoji', () => {
    expect(fitTitle('x'.repeat(40))).toBe(`${'x'.repeat(29)}…`);
    const emoji = fitTitle('🛹'.repeat(40));
    expect(Array.from(emoji)).toHaveLength(30);
  });
});
