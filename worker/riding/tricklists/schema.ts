import { z } from '@hono/zod-openapi';
import { pathId } from '../../platform/http/ids';
import { PageQuery } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { SPORTS } from '../../platform/sports';

/** Reminder cadence per list (the interface spec's reminders part); a new list gets the spec's default. */
export const REMINDER_CADENCES = ['off', 'daily', '3x-week', 'weekly'] as const;
export type ReminderCadence = (typeof REMINDER_CADENCES)[number];
export const DEFAULT_REMINDER_CADENCE = 'weekly' satisfies ReminderCadence;

const ListName = z
  .string()
  .trim()
  .min(LIMITS.trickListName.min, 'must not be empty')
  .max(LIMITS.trickListName.max, `must be at most ${LIMITS.trickListName.max} characters`);
const Sport = z.enum(SPORTS, { message: `must be one of ${SPORTS.join(', ')}` });
const Cadence = z.enum(REMINDER_CADENCES, { message: `must be one of ${REMINDER_CADENCES.join(', ')}` });

export const ListIdParam = z.object({ listId: pathId('listId') });

export const NewTrickListBody = z
  .object({ name: ListName, sport: Sport, reminderCadence: Cadence.default(DEFAULT_REMINDER_CADENCE) })
  .strict();

export const TrickListChanges = z
  .object({ name: ListName.optional(), sport: Sport.optional(), reminderCadence: Cadence.optional() })
  .strict();

export const TrickListQuery = PageQuery;

/** A trick list as its owner sees it. */
export const TrickList = z
  .object({
    _id: z.string(),
    name: z.string(),
    sport: z.string().describe(`one of ${SPORTS.join(', ')}`),
    reminderCadence: z.enum(REMINDER_CADENCES),
    lastOpenedAt: z.string().nullable().describe('when the owner last opened the list; null if never'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('TrickList');

/** A list with how many tricks it holds, as the list pages and a single list read show it. */
export const TrickListWithCount = TrickList.extend({ trickCount: z.number().int() }).openapi('TrickListWithCount');

/** A list as opening it shows it: the flag asks the client to offer resuming reminders (docs/reminders.md). */
export const OpenedTrickList = TrickListWithCount.extend({
  remindersAutoPaused: z
    .boolean()
    .describe('true on the first open after reminders were turned off for 60 days without an open: prompt to resume'),
}).openapi('OpenedTrickList');

export const DeletedTrickList = z.object({ deleted: z.literal(true), listId: z.string(), tricksDeleted: z.number() });
