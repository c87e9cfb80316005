import { LIMITS } from '../../platform/limits';
import type { ReminderCadence } from '../tricklists/schema';
import { addDays, localParts, zonedInstant } from './local-time';

/** Reminders go out at 18:00 the rider's time: after school and work, before the default quiet hours (21:00). */
export const REMINDER_LOCAL_TIME = '18:00';

/** The local weekdays (0 = Sunday) each cadence reminds on; weekly on Saturday, the usual riding day. */
export const CADENCE_WEEKDAYS: Record<Exclude<ReminderCadence, 'off'>, readonly number[]> = {
  daily: [0, 1, 2, 3, 4, 5, 6],
  '3x-week': [1, 3, 5],
  weekly: [6],
};

export interface RiderClock {
  timeZone: string;
  /** HH:mm bounds of the rider's quiet hours, which may span midnight. */
  quietHours: { start: string; end: string };
}

/** Whether an HH:mm time falls in a window [start, end) that may span midnight; an empty window never does. */
export function inWindow(time: string, window: { start: string; end: string }): boolean {
  if (window.start === window.end) return false;
  return window.start < window.end
    ? time >= window.start && time < window.end
    : time >= window.start || time < window.end;
}

/** The time of day reminders are planned at: 18:00, or the end of the rider's quiet hours when 18:00 is inside them. */
export function reminderTimeOfDay(clock: RiderClock): string {
  return inWindow(REMINDER_LOCAL_TIME, clock.quietHours) ? clock.quietHours.end : REMINDER_LOCAL_TIME;
}

/**
 * Every reminder instant of a cadence after `now` and within the planning horizon. A pure function of
 * cadence, clock and the local date, so planning twice on one day yields the same instants (and keys).
 */
export function planSlots(cadence: ReminderCadence, clock: RiderClock, now: Date): Date[] {
  if (cadence === 'off') return [];
  const weekdays = CADENCE_WEEKDAYS[cadence];
  const time = reminderTimeOfDay(clock);
  const horizonEnd = now.getTime() + LIMITS.reminders.planningHorizonDays * 86_400_000;
  const today = localParts(now, clock.timeZone);
  const slots: Date[] = [];
  for (let offset = 0; offset <= LIMITS.reminders.planningHorizonDays; offset++) {
    const date = addDays(today, offset);
    if (!weekdays.includes(date.weekday)) continue;
    const at = zonedInstant(date, time, clock.timeZone);
    if (at.getTime() > now.getTime() && at.getTime() <= horizonEnd) slots.push(at);
  }
  return slots;
}
