import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { pageOf } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { replanList } from '../reminders/service';
import { countTricks, countTricksPerList, deleteTricksOfList } from '../tricks/service';
import { readTrickList } from './reader';
import { TRICK_REFUSALS } from './refusals';
import {
  DeletedTrickList,
  ListIdParam,
  NewTrickListBody,
  OpenedTrickList,
  TrickList,
  TrickListChanges,
  TrickListQuery,
  TrickListWithCount,
} from './schema';
import { deleteTrickList, findTrickLists, insertTrickList, openTrickList, updateTrickList } from './service';
import { trickListView, trickListWithCountView } from './views';

const TAGS = ['tricklists'];
const noList = errorResponse('No such list of yours (another rider’s list answers the same)');

const listLists = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'Your trick lists, newest first, each with its trick count',
  middleware: [auth()] as const,
  request: { query: TrickListQuery },
  responses: { 200: jsonResponse(pageOf(TrickListWithCount), 'A page of your lists') },
});

const createList = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Create a trick list (reminderCadence defaults to weekly)',
  middleware: [auth()] as const,
  request: jsonBody(NewTrickListBody),
  responses: { 201: jsonResponse(TrickList, 'The new list') },
});

const openList = defineRoute({
  method: 'get',
  path: '/{listId}',
  tags: TAGS,
  summary: 'Open one of your lists (sets its lastOpenedAt)',
  middleware: [auth()] as const,
  request: { params: ListIdParam },
  responses: { 200: jsonResponse(OpenedTrickList, 'The list, lastOpenedAt now'), 404: noList },
});

const patchList = defineRoute({
  method: 'patch',
  path: '/{listId}',
  tags: TAGS,
  summary: 'Rename a list or change its sport or reminder cadence',
  middleware: [auth()] as const,
  request: { params: ListIdParam, ...jsonBody(TrickListChanges) },
  responses: { 200: jsonResponse(TrickList, 'The list'), 404: noList },
});

const deleteList = defineRoute({
  method: 'delete',
  path: '/{listId}',
  tags: TAGS,
  summary: 'Delete a list and its tricks',
  middleware: [auth()] as const,
  request: { params: ListIdParam },
  responses: { 200: jsonResponse(DeletedTrickList, 'Deleted, with how many tricks went with it'), 404: noList },
});

/** A rider's own trick lists, mounted under /api/tricklists; the tricks in them are worker/riding/tricks/routes.ts. */
export const trickListRoutes = createRouter<AppEnv>()
  .openapi(listLists, async (c) => {
    const query = c.req.valid('query');
    const userId = new ObjectId(c.var.user._id);
    const rows = await findTrickLists(c.var.db, userId, query);
    const counts = await countTricksPerList(
      c.var.db,
      userId,
      rows.slice(0, query.limit).flatMap((row) => readTrickList(row)?._id ?? []),
    );
    const page = toReadPage('tricklists', rows, query.limit, (row) => {
      const list = readTrickList(row);
      return list && trickListWithCountView(list, counts.get(list._id.toHexString()) ?? 0);
    });
    return c.json(page, 200);
  })
  .openapi(createList, async (c) => {
    const userId = new ObjectId(c.var.user._id);
    const list = await insertTrickList(c.var.db, userId, c.req.valid('json'));
    // A new list's cadence (weekly by default) is planned at once, as a later cadence change would be.
    await replanList(c.var.db, { ...list, userId });
    return c.json(trickListView(list), 201);
  })
  .openapi(openList, async (c) => {
    const owner = { userId: new ObjectId(c.var.user._id), listId: new ObjectId(c.req.valid('param').listId) };
    const opened = await openTrickList(c.var.db, owner.userId, owner.listId);
    if (!opened) throw refusal(TRICK_REFUSALS, 'list-not-found');
    const trickCount = await countTricks(c.var.db, owner);
    return c.json(
      { ...trickListWithCountView(opened.list, trickCount), remindersAutoPaused: opened.remindersAutoPaused },
      200,
    );
  })
  .openapi(patchList, async (c) => {
    const userId = new ObjectId(c.var.user._id);
    const changes = c.req.valid('json');
    const list = await updateTrickList(c.var.db, userId, new ObjectId(c.req.valid('param').listId), changes);
    if (!list) throw refusal(TRICK_REFUSALS, 'list-not-found');
    // A cadence changed here re-plans as PUT /api/users/me/reminder-cadence/:listId does (worker/riding/reminders/routes.ts).
    if (changes.reminderCadence) await replanList(c.var.db, { ...list, userId });
    return c.json(trickListView(list), 200);
  })
  .openapi(deleteList, async (c) => {
    const owner = { userId: new ObjectId(c.var.user._id), listId: new ObjectId(c.req.valid('param').listId) };
    const deleted = await deleteTrickList(c.var.db, owner.userId, owner.listId);
    // Swept even when the list is already gone, so retrying a deletion that failed half-way cleans up.
    const tricksDeleted = await deleteTricksOfList(c.var.db, owner);
    if (!deleted) throw refusal(TRICK_REFUSALS, 'list-not-found');
    return c.json({ deleted: true as const, listId: owner.listId.toHexString(), tricksDeleted }, 200);
  });
