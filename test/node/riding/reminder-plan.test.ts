import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../worker/platform/limits';
import { localParts, zonedInstant } from '../../../worker/riding/reminders/local-time';
import { inWindow, planSlots, reminderTimeOfDay } from '../../../worker/riding/reminders/plan';

const clock = (timeZone: string, start = '21:00', end = '09:00') => ({ timeZone, quietHours: { start, end } });

describe('reminder planning (worker/riding/reminders/plan.ts)', () => {
  it('plans daily reminders at 18:00 local time for the next 30 days, after now', () => {
    const now = new Date('2026-03-02T12:00:00Z');
    const slots = planSlots('daily', clock('Europe/Berlin'), now);
    expect(slots).toHaveLength(LIMITS.reminders.planningHorizonDays);
    for (const slot of slots) expect(localParts(slot, 'Europe/Berlin')).toMatchObject({ hour: 18, minute: 0 });
    expect(slots[0]!.toISOString()).toBe('2026-03-02T17:00:00.000Z');
  });

  it('follows the zone across a DST change: 18:00 Berlin is 17:00 UTC before and 16:00 UTC after', () => {
    const slots = planSlots('daily', clock('Europe/Berlin'), new Date('2026-03-27T12:00:00Z'));
    const iso = slots.slice(0, 3).map((slot) => slot.toISOString());
    expect(iso).toEqual(['2026-03-27T17:00:00.000Z', '2026-03-28T17:00:00.000Z', '2026-03-29T16:00:00.000Z']);
  });

  it('plans 3x-week on Monday, Wednesday and Friday and weekly on Saturday, local weekdays', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const weekdays = (cadence: '3x-week' | 'weekly') =>
      new Set(planSlots(cadence, clock('America/Los_Angeles'), now).map((slot) => zonedWeekday(slot)));
    expect(weekdays('3x-week')).toEqual(new Set(['Mon', 'Wed', 'Fri']));
    expect(weekdays('weekly')).toEqual(new Set(['Sat']));
    expect(planSlots('weekly', clock('America/Los_Angeles'), now)).toHaveLength(4);
  });

  it('plans nothing for cadence off', () => {
    expect(planSlots('off', clock('UTC'), new Date())).toEqual([]);
  });

  it('is the same plan when made twice on one day (the keys depend on it)', () => {
    const a = planSlots('3x-week', clock('Asia/Tokyo'), new Date('2026-05-05T01:00:00Z'));
    const b = planSlots('3x-week', clock('Asia/Tokyo'), new Date('2026-05-05T01:07:00Z'));
    expect(b).toEqual(a);
  });

  it('moves the time to the end of quiet hours when 18:00 falls inside them, spanning midnight or not', () => {
    expect(reminderTimeOfDay(clock('UTC', '17:00', '08:30'))).toBe('08:30');
    expect(reminderTimeOfDay(clock('UTC', '12:00', '19:00'))).toBe('19:00');
    expect(reminderTimeOfDay(clock('UTC'))).toBe('18:00');
    expect(inWindow('23:59', { start: '22:00', end: '06:00' })).toBe(true);
    expect(inWindow('06:00', { start: '22:00', end: '06:00' })).toBe(false);
    expect(inWindow('12:00', { start: '09:00', end: '09:00' })).toBe(false);
  });

  it('turns a local wall-clock time into the right instant in a zone west of UTC in summer', () => {
    expect(zonedInstant({ year: 2026, month: 7, day: 4 }, '18:00', 'America/New_York').toISOString()).toBe(
      '2026-07-04T22:00:00.000Z',
    );
  });
});

function zonedWeekday(at: Date): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', weekday: 'short' }).format(at);
}
