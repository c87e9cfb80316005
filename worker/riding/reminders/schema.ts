import { z } from '@hono/zod-openapi';
import { IdParam, pathId } from '../../platform/http/ids';
import { LIMITS } from '../../platform/limits';
import { REMINDER_CADENCES } from '../tricklists/schema';

const { localSchedulingDaysDefault, localSchedulingDaysMax } = LIMITS.reminders;

const Cadence = z.enum(REMINDER_CADENCES, { message: `must be one of ${REMINDER_CADENCES.join(', ')}` });

export const CadenceListParam = z.object({ listId: pathId('listId') });
export const RowParam = IdParam;

export const CadenceBody = z.object({ cadence: Cadence }).strict();

export const LocalSchedulingQuery = z.object({
  within: z
    .string()
    .default(`${localSchedulingDaysDefault}d`)
    .transform((value, ctx) => {
      const days = /^(\d{1,3})d$/.exec(value) ? Number(value.slice(0, -1)) : Number.NaN;
      if (days >= 1 && days <= localSchedulingDaysMax) return days;
      ctx.addIssue({ code: 'custom', message: `must be a number of days from 1d to ${localSchedulingDaysMax}d` });
      return z.NEVER;
    })
    .openapi({
      type: 'string',
      example: `${localSchedulingDaysDefault}d`,
      description: `how far ahead, in days, e.g. 14d (at most ${localSchedulingDaysMax}d)`,
    }),
});

export const CadenceEntry = z
  .object({ listId: z.string(), cadence: z.enum(REMINDER_CADENCES) })
  .openapi('ReminderCadence');

export const Replanned = CadenceEntry.extend({
  plannedFor: z.array(z.string()).describe('the instants (UTC) of the planned reminders, soonest first'),
}).openapi('ReminderPlan');

/** A scheduled notification as its rider sees it. */
export const ScheduledNotification = z
  .object({
    _id: z.string(),
    listId: z.string(),
    trickId: z.string().nullable().describe('the trick when planned; the reminder names the trick chosen at send time'),
    category: z.literal('reminder'),
    scheduledFor: z.string(),
    status: z.enum(['pending', 'sent', 'cancelled', 'failed']),
    idempotencyKey: z.string(),
    attemptCount: z.number().int(),
    lastAttemptAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('ScheduledNotification');

/** A pending reminder with the notification to schedule on the device. */
export const LocalReminder = ScheduledNotification.extend({
  notification: z.object({
    title: z.string(),
    body: z.string(),
    threadId: z.string(),
    channelId: z.literal('reminders'),
    data: z.object({
      url: z.string(),
      category: z.literal('reminders'),
      idempotencyKey: z.string(),
      listId: z.string(),
      trickId: z.string(),
    }),
  }),
}).openapi('LocalReminder');
