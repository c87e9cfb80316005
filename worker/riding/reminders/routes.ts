import { z } from '@hono/zod-openapi';
import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { findReminderCadences, setReminderCadence } from '../tricklists/service';
import { REMINDER_REFUSALS } from './refusals';
import {
  CadenceBody,
  CadenceEntry,
  CadenceListParam,
  LocalReminder,
  LocalSchedulingQuery,
  Replanned,
  RowParam,
  ScheduledNotification,
} from './schema';
import { confirmLocalDelivery, findLocalReminders, replanList } from './service';
import { localReminderView, scheduledNotificationView } from './views';

const TAGS = ['notifications'];

const listCadences = defineRoute({
  method: 'get',
  path: '/me/reminder-cadence',
  tags: TAGS,
  summary: 'The reminder cadence of each of your trick lists (weekly unless changed)',
  middleware: [auth()] as const,
  responses: { 200: jsonResponse(z.array(CadenceEntry), 'One entry per list, oldest list first') },
});

const putCadence = defineRoute({
  method: 'put',
  path: '/me/reminder-cadence/{listId}',
  tags: TAGS,
  summary: 'Set a list’s reminder cadence and re-plan its reminders for the next 30 days (idempotent)',
  middleware: [auth()] as const,
  request: { params: CadenceListParam, ...jsonBody(CadenceBody) },
  responses: {
    200: jsonResponse(Replanned, 'The cadence and the planned reminder times'),
    404: errorResponse('No such list of yours (another rider’s list answers the same)'),
  },
});

const localScheduling = defineRoute({
  method: 'get',
  path: '/me/scheduled-notifications',
  tags: TAGS,
  summary: 'Your pending reminders due within `within` days, soonest first, for scheduling on the device',
  middleware: [auth()] as const,
  request: { query: LocalSchedulingQuery },
  responses: { 200: jsonResponse(z.array(LocalReminder), 'Pending reminders with their notification') },
});

const delivered = defineRoute({
  method: 'post',
  path: '/me/scheduled-notifications/{id}/delivered',
  tags: TAGS,
  summary: 'Confirm that the device showed a locally scheduled reminder: it becomes sent (idempotent)',
  middleware: [auth()] as const,
  request: { params: RowParam },
  responses: {
    200: jsonResponse(ScheduledNotification, 'The reminder, sent'),
    404: errorResponse('No such scheduled notification of yours'),
    409: errorResponse('The reminder was cancelled or failed; it cannot be sent'),
  },
});

/** Trick reminders of the caller (docs/reminders.md), mounted under /api/users. */
export const reminderRoutes = createRouter<AppEnv>()
  .openapi(listCadences, async (c) => {
    const lists = await findReminderCadences(c.var.db, new ObjectId(c.var.user._id));
    const entries = lists.map((list) => ({
      listId: list._id.toHexString(),
      cadence: list.reminderCadence,
    }));
    return c.json(entries, 200);
  })
  .openapi(putCadence, async (c) => {
    const { listId } = c.req.valid('param');
    const { cadence } = c.req.valid('json');
    const userId = new ObjectId(c.var.user._id);
    const list = await setReminderCadence(c.var.db, userId, new ObjectId(listId), cadence);
    if (!list) throw refusal(REMINDER_REFUSALS, 'list-not-found');
    const slots = await replanList(c.var.db, { ...list, userId });
    return c.json({ listId, cadence, plannedFor: slots.map((slot) => slot.toISOString()) }, 200);
  })
  .openapi(localScheduling, async (c) => {
    const { within } = c.req.valid('query');
    const reminders = await findLocalReminders(c.var.db, new ObjectId(c.var.user._id), within);
    return c.json(reminders.map(localReminderView), 200);
  })
  .openapi(delivered, async (c) => {
    const outcome = await confirmLocalDelivery(
      c.var.db,
      new ObjectId(c.var.user._id),
      new ObjectId(c.req.valid('param').id),
    );
    if (typeof outcome === 'string') throw refusal(REMINDER_REFUSALS, outcome);
    return c.json(scheduledNotificationView(outcome), 200);
  });
