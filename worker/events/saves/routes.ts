import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { PageQuery } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { EVENT_REFUSALS } from '../catalog/refusals';
import { EventParam } from '../catalog/schema';
import { findEventsByIds } from '../catalog/service';
import { eventView } from '../catalog/views';
import { readEventSave } from '../stored-event';
import { EventSaveState, SavedEventPage } from './schema';
import { listEventSaves, saveEvent, unsaveEvent } from './service';

const TAGS = ['events'];

const save = defineRoute({
  method: 'post',
  path: '/{id}/save',
  tags: TAGS,
  summary: 'Save an event (idempotent)',
  middleware: [auth()] as const,
  request: { params: EventParam },
  responses: { 200: jsonResponse(EventSaveState, 'Saved'), 404: errorResponse('No such event') },
});

const unsave = defineRoute({
  method: 'delete',
  path: '/{id}/save',
  tags: TAGS,
  summary: 'Unsave an event (idempotent; also answers 200 for an event that is gone)',
  middleware: [auth()] as const,
  request: { params: EventParam },
  responses: { 200: jsonResponse(EventSaveState, 'Not saved') },
});

const mine = defineRoute({
  method: 'get',
  path: '/me/saved-events',
  tags: TAGS,
  summary: 'Your saved events, newest saved first (events gone since are left out)',
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(SavedEventPage, 'A page of saved events') },
});

/** Saving events, mounted under /api/events. */
export const eventSaveRoutes = createRouter<AppEnv>()
  .openapi(save, async (c) => {
    const { id } = c.req.valid('param');
    const outcome = await saveEvent(c.var.db, new ObjectId(id), c.var.user._id);
    if (outcome === 'not-found') throw refusal(EVENT_REFUSALS, outcome);
    return c.json({ saved: true, eventId: id }, 200);
  })
  .openapi(unsave, async (c) => {
    const { id } = c.req.valid('param');
    await unsaveEvent(c.var.db, new ObjectId(id), c.var.user._id);
    return c.json({ saved: false, eventId: id }, 200);
  });

/** The caller's saved events, mounted under /api/users. */
export const mySavedEventRoutes = createRouter<AppEnv>().openapi(mine, async (c) => {
  const query = c.req.valid('query');
  const rows = await listEventSaves(c.var.db, c.var.user._id, query);
  const page = toReadPage('event_saves', rows, query.limit, readEventSave);
  const ids = page.items.map((save) => new ObjectId(save.eventId));
  const events = new Map((await findEventsByIds(c.var.db, ids)).map((event) => [event._id.toHexString(), event]));
  const items = page.items.flatMap((save) => {
    const event = events.get(save.eventId);
    return event ? [eventView(event)] : [];
  });
  return c.json({ items, nextCursor: page.nextCursor }, 200);
});
