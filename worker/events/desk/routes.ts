import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { readId } from '../../platform/db/stored-values';
import { adminPageRoutes } from '../../platform/http/admin-page-routes';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { encodeCursor } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { EVENT_SOURCES } from '../ingestion/sources';
import { readEvent } from '../stored-event';
import { utcTimes } from '../submissions/document';
import { editSet } from './edit';
import { afterAdminEdit, afterApproved } from './hooks';
import { mergeEvent } from './merge';
import { DESK_PAGE, DESK_SCRIPT, DESK_STYLES } from './page';
import { DESK_REFUSALS } from './refusals';
import {
  DeskEvent,
  DeskEventParam,
  DuplicatePage,
  DuplicatesQuery,
  EditBody,
  EventSourceList,
  MergeBody,
  MergeResult,
  QueuePage,
  QueueQuery,
  ReviewBody,
  StaleList,
  StaleQuery,
} from './schema';
import {
  applyEdit,
  clearPossibleDuplicates,
  findDeskEvent,
  listByApproval,
  listDuplicates,
  listStale,
  reviewEvent,
  sourceRows,
  verifyEvent,
} from './service';
import { deskEventView, sourceStatusView } from './views';

// The admin desk for events (docs/event-desk.md). Admin only, mounted under /api/admin.

const TAGS = ['events desk'];
const noEvent = errorResponse('No such event');

const sources = defineRoute({
  method: 'get',
  path: '/event-sources',
  tags: TAGS,
  summary: "Each event source's settings and health: last success, last failure, consecutive failures, counts",
  middleware: [admin()] as const,
  responses: { 200: jsonResponse(EventSourceList, 'Every known source, run or not') },
});

const queue = defineRoute({
  method: 'get',
  path: '/events',
  tags: TAGS,
  summary: 'The review queue: events by approval status (pending by default), oldest first',
  middleware: [admin()] as const,
  request: { query: QueueQuery },
  responses: { 200: jsonResponse(QueuePage, 'A page of events with their submitter, duplicates and review') },
});

const review = defineRoute({
  method: 'post',
  path: '/events/{id}/review',
  tags: TAGS,
  summary: 'Approve (publish) or reject an event',
  description:
    'Approving publishes the event (lists, map, calendar, detail) and matches it against event subscriptions once; repeating a decision changes nothing. Rejecting a published event takes it out of public view.',
  middleware: [admin()] as const,
  request: { params: DeskEventParam, ...jsonBody(ReviewBody) },
  responses: {
    200: jsonResponse(DeskEvent, 'The event after the decision'),
    404: noEvent,
    409: errorResponse('The event was merged into another; review that one'),
  },
});

const duplicates = defineRoute({
  method: 'get',
  path: '/events/duplicates',
  tags: TAGS,
  summary: 'Duplicate candidates: events stored with possibleDuplicateOf, with the events they look like',
  middleware: [admin()] as const,
  request: { query: DuplicatesQuery },
  responses: { 200: jsonResponse(DuplicatePage, 'A page of candidates, oldest first') },
});

const notDuplicate = defineRoute({
  method: 'delete',
  path: '/events/{id}/possible-duplicates',
  tags: TAGS,
  summary: 'Not a duplicate: clears the event’s possibleDuplicateOf',
  middleware: [admin()] as const,
  request: { params: DeskEventParam },
  responses: { 200: jsonResponse(DeskEvent, 'The event, off the duplicates list'), 404: noEvent },
});

const merge = defineRoute({
  method: 'post',
  path: '/events/{id}/merge',
  tags: TAGS,
  summary: 'Merge this event into another (the survivor): listings, saves and relationships move',
  description:
    'sourceRefs, saves and relationships move to the survivor without duplicates (a rider\'s save or relationship already on the survivor wins) and its relationshipCounts grow by what moved. The merged event stays stored as rejected with mergedInto, so its old id and slug keep resolving on GET /api/events/{slugOrId} to the survivor (migrations-notes/events-target-model.md, "Merging"). Repeating a merge that stopped half-way finishes it.',
  middleware: [admin()] as const,
  request: { params: DeskEventParam, ...jsonBody(MergeBody) },
  responses: {
    200: jsonResponse(MergeResult, 'The survivor and what moved'),
    400: errorResponse('An event cannot be merged into itself'),
    404: noEvent,
    409: errorResponse('Already merged into another event, or the survivor was itself merged away'),
  },
});

const edit = defineRoute({
  method: 'patch',
  path: '/events/{id}',
  tags: TAGS,
  summary: 'Edit an event; material changes are logged with the admin as `by` and notify riders',
  description:
    'The fields of a submission, each optional; a time as an instant with an offset (startAt) or a local time (startLocal) read in `timezone` (given, else stored), not both; a place as venue.location or venue.lat/lng, not both. An edit counts as verifying the event (freshness restarts). Publishing is the review decision, not an edit.',
  middleware: [admin()] as const,
  request: { params: DeskEventParam, ...jsonBody(EditBody) },
  responses: {
    200: jsonResponse(DeskEvent, 'The event after the edit'),
    404: noEvent,
    409: errorResponse('The event changed while being edited, or was merged away; reload and edit again'),
  },
});

const verify = defineRoute({
  method: 'post',
  path: '/events/{id}/verify',
  tags: TAGS,
  summary: 'Confirm an event as it stands: freshness restarts (lastVerifiedAt now), taking it off the stale list',
  middleware: [admin()] as const,
  request: { params: DeskEventParam },
  responses: { 200: jsonResponse(DeskEvent, 'The event'), 404: noEvent },
});

const stale = defineRoute({
  method: 'get',
  path: '/events/stale',
  tags: TAGS,
  summary: 'Published, still-scheduled events past freshness.staleAfter (not re-verified by a source or an admin)',
  middleware: [admin()] as const,
  request: { query: StaleQuery },
  responses: { 200: jsonResponse(StaleList, 'Longest overdue first') },
});

const admin_ = (c: { var: { user: { _id: string } } }) => new ObjectId(c.var.user._id);

/** Mounted under /api/admin. */
export const eventDeskRoutes = createRouter<AppEnv>()
  .openapi(sources, async (c) => {
    const rows = new Map((await sourceRows(c.var.db)).map((row) => [row._id, row]));
    const list = EVENT_SOURCES.map((source) =>
      sourceStatusView(source, Boolean(c.env[source.setting]?.trim()), rows.get(source.name)),
    );
    return c.json({ sources: list }, 200);
  })
  .openapi(queue, async (c) => {
    const query = c.req.valid('query');
    const rows = await listByApproval(c.var.db, query);
    return c.json(
      toReadPage('events', rows, query.limit, (row) => {
        const event = readEvent(row);
        return event && deskEventView(event);
      }),
      200,
    );
  })
  .openapi(duplicates, async (c) => {
    const query = c.req.valid('query');
    const { items, last } = await listDuplicates(c.var.db, query);
    const lastId = readId(last?._id);
    return c.json(
      {
        items: items.map((row) => ({ event: deskEventView(row.event), candidates: row.candidates.map(deskEventView) })),
        nextCursor: lastId ? encodeCursor(lastId) : null,
      },
      200,
    );
  })
  .openapi(stale, async (c) => {
    const { items, total } = await listStale(c.var.db, c.req.valid('query').limit, new Date());
    return c.json({ items: items.map(deskEventView), totalCount: total }, 200);
  })
  .openapi(review, async (c) => {
    const id = new ObjectId(c.req.valid('param').id);
    const body = c.req.valid('json');
    const reviewed = await reviewEvent(c.var.db, id, { ...body, by: admin_(c) }, new Date());
    if (!('event' in reviewed)) throw refusal(DESK_REFUSALS, reviewed);
    if (reviewed.outcome === 'changed' && reviewed.published) await afterApproved(c.var.db, reviewed.event);
    return c.json(deskEventView(reviewed.event), 200);
  })
  .openapi(notDuplicate, async (c) => {
    const event = await clearPossibleDuplicates(c.var.db, new ObjectId(c.req.valid('param').id), new Date());
    if (!event) throw refusal(DESK_REFUSALS, 'not-found');
    return c.json(deskEventView(event), 200);
  })
  .openapi(merge, async (c) => {
    const id = new ObjectId(c.req.valid('param').id);
    const merged = await mergeEvent(c.var.db, id, new ObjectId(c.req.valid('json').intoId), admin_(c));
    if (merged.outcome !== 'merged') throw refusal(DESK_REFUSALS, merged);
    return c.json({ event: deskEventView(merged.event), moved: merged.moved }, 200);
  })
  .openapi(edit, async (c) => {
    const found = await findDeskEvent(c.var.db, new ObjectId(c.req.valid('param').id));
    if (!found) throw refusal(DESK_REFUSALS, 'not-found');
    const before = found.event;
    if (before.mergedInto) throw new ApiError(409, `This event was merged into ${before.mergedInto.toHexString()}.`);
    const body = c.req.valid('json');
    const { times, errors } = utcTimes(body, body.timezone ?? before.timezone);
    if (errors.length) throw new ApiError(400, 'Invalid request body.', { details: errors });
    const after = await applyEdit(c.var.db, found, editSet(before, body, times), new Date());
    if (!after) throw new ApiError(409, 'The event changed while you edited it; reload and edit again.');
    await afterAdminEdit(c.var.db, { before, after, by: admin_(c) });
    return c.json(deskEventView(after), 200);
  })
  .openapi(verify, async (c) => {
    const event = await verifyEvent(c.var.db, new ObjectId(c.req.valid('param').id), new Date());
    if (!event) throw refusal(DESK_REFUSALS, 'not-found');
    return c.json(deskEventView(event), 200);
  });

/** The desk page with its script and stylesheet, mounted at the root (outside /api: no database, no CORS), as the analytics page is. */
export const eventDeskPageRoutes = adminPageRoutes<AppEnv>({
  page: DESK_PAGE,
  script: DESK_SCRIPT,
  styles: DESK_STYLES,
  name: 'the events desk page',
  summary: 'The events desk page: an admin signs in on it; the queue, duplicates and stale events with their actions',
  tags: TAGS,
});
