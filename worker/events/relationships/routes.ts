import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { toPage } from '../../platform/http/pagination';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { targetEventView } from '../catalog/record-view';
import { EVENT_REFUSALS } from '../catalog/refusals';
import { EventParam } from '../catalog/schema';
import type { EventRelationship } from '../catalog/vocabulary';
import { MyEventsPage, MyEventsQuery, RelationshipBody, RelationshipState } from './schema';
import { listRelationships, publishedEventsByIds, setRelationship } from './service';

const TAGS = ['events'];
const WITH_SAVE =
  'Coexists with save (POST /api/events/{id}/save): a save bookmarks the event, a relationship says what you will do there; either can exist without the other, and neither changes the other.';

const change = defineRoute({
  method: 'patch',
  path: '/{id}/relationship',
  tags: TAGS,
  summary: 'Set your relationship to an event: interested, going, competing, watching_online, or none',
  description: `One relationship per rider and event; the event's relationshipCounts stay exact under concurrent changes. ${WITH_SAVE}`,
  middleware: [auth()] as const,
  request: { params: EventParam, ...jsonBody(RelationshipBody) },
  responses: {
    200: jsonResponse(RelationshipState, 'Your relationship and the event counts after the change'),
    404: errorResponse('No such published event'),
  },
});

const mine = defineRoute({
  method: 'get',
  path: '/me/events',
  tags: TAGS,
  summary: 'Events you hold a relationship to, newest change first (unpublished or gone events left out)',
  description: WITH_SAVE,
  middleware: [auth()] as const,
  request: { query: MyEventsQuery },
  responses: { 200: jsonResponse(MyEventsPage, 'A page of your events with your relationship') },
});

/** Mounted under /api/events. */
export const eventRelationshipRoutes = createRouter<AppEnv>().openapi(change, async (c) => {
  const { id } = c.req.valid('param');
  const { relationship } = c.req.valid('json');
  const result = await setRelationship(c.var.db, new ObjectId(id), new ObjectId(c.var.user._id), relationship);
  if (result === 'not-found') throw refusal(EVENT_REFUSALS, result);
  return c.json(result, 200);
});

/** Mounted under /api/users. */
export const myEventRoutes = createRouter<AppEnv>().openapi(mine, async (c) => {
  const query = c.req.valid('query');
  const rows = await listRelationships(c.var.db, new ObjectId(c.var.user._id), query);
  const page = toPage(rows, query.limit, (row) => row);
  const events = new Map(
    (
      await publishedEventsByIds(
        c.var.db,
        page.items.map((row) => row.eventId),
      )
    ).map((e) => [e._id.toHexString(), e]),
  );
  const items = page.items.flatMap((row) => {
    const event = events.get(row.eventId.toHexString());
    return event ? [{ relationship: row.relationship as EventRelationship, event: targetEventView(event) }] : [];
  });
  return c.json({ items, nextCursor: page.nextCursor }, 200);
});
