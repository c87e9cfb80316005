import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { PageQuery } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { SPOT_LIST_REFUSALS } from './refusals';
import {
  DeletedSpotList,
  ListParam,
  ListSpotParam,
  NewSpotList,
  SpotList,
  SpotListChanges,
  SpotListPage,
} from './schema';
import {
  addSpotToList,
  deleteSpotList,
  findSpotList,
  insertSpotList,
  listSpotLists,
  removeSpotFromList,
  renameSpotList,
} from './service';
import { subscription } from './subscription';
import { spotListView, storedSpotListView } from './views';

const TAGS = ['spot lists'];
const theList = jsonResponse(SpotList, 'The spot list');
// Spot lists are private: another rider's list answers exactly as a missing one (product decisions).
const noList = errorResponse('No such spot list of yours');

const listLists = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'Your spot lists, newest first',
  middleware: [auth()] as const,
  request: { query: PageQuery },
  responses: { 200: jsonResponse(SpotListPage, 'A page of your spot lists') },
});

const createList = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Create a spot list (free accounts: up to 3)',
  middleware: [auth(), subscription()] as const,
  request: jsonBody(NewSpotList),
  responses: { 201: jsonResponse(SpotList, 'Created') },
});

const getList = defineRoute({
  method: 'get',
  path: '/{listId}',
  tags: TAGS,
  summary: 'One of your spot lists',
  middleware: [auth()] as const,
  request: { params: ListParam },
  responses: { 200: theList, 404: noList },
});

const patchList = defineRoute({
  method: 'patch',
  path: '/{listId}',
  tags: TAGS,
  summary: 'Rename one of your spot lists',
  middleware: [auth()] as const,
  request: { params: ListParam, ...jsonBody(SpotListChanges) },
  responses: { 200: theList, 404: noList },
});

const deleteList = defineRoute({
  method: 'delete',
  path: '/{listId}',
  tags: TAGS,
  summary: 'Delete one of your spot lists (the spots stay)',
  middleware: [auth()] as const,
  request: { params: ListParam },
  responses: { 200: jsonResponse(DeletedSpotList, 'Deleted'), 404: noList },
});

const putSpot = defineRoute({
  method: 'put',
  path: '/{listId}/spots/{spotId}',
  tags: TAGS,
  summary: 'Add a spot to your list (adding it again changes nothing)',
  middleware: [auth()] as const,
  request: { params: ListSpotParam },
  responses: {
    200: theList,
    404: errorResponse('No such spot list of yours, or no such spot'),
    409: errorResponse('The list is full'),
  },
});

const deleteSpot = defineRoute({
  method: 'delete',
  path: '/{listId}/spots/{spotId}',
  tags: TAGS,
  summary: 'Remove a spot from your list (removing it again changes nothing)',
  middleware: [auth()] as const,
  request: { params: ListSpotParam },
  responses: { 200: theList, 404: noList },
});

const ids = (c: { var: { user: { _id: string } } }, listId: string) => ({
  userId: new ObjectId(c.var.user._id),
  listId: new ObjectId(listId),
});

/** The signed-in rider's spot lists; nobody else's are reachable. */
export const spotListRoutes = createRouter<AppEnv>()
  .openapi(listLists, async (c) => {
    const { limit, cursor } = c.req.valid('query');
    const rows = await listSpotLists(c.var.db, new ObjectId(c.var.user._id), { limit, cursor });
    return c.json(toReadPage('spotlists', rows, limit, storedSpotListView), 200);
  })
  .openapi(createList, async (c) => {
    const list = await insertSpotList(c.var.db, new ObjectId(c.var.user._id), c.req.valid('json').name);
    c.var.spotListSlot.taken = true;
    return c.json(spotListView(list), 201);
  })
  .openapi(getList, async (c) => {
    const { listId, userId } = ids(c, c.req.valid('param').listId);
    const list = await findSpotList(c.var.db, listId, userId);
    if (!list) throw refusal(SPOT_LIST_REFUSALS, 'not-found');
    return c.json(spotListView(list), 200);
  })
  .openapi(patchList, async (c) => {
    const { listId, userId } = ids(c, c.req.valid('param').listId);
    const outcome = await renameSpotList(c.var.db, listId, userId, c.req.valid('json'));
    if (typeof outcome === 'string') throw refusal(SPOT_LIST_REFUSALS, outcome);
    return c.json(spotListView(outcome), 200);
  })
  .openapi(deleteList, async (c) => {
    const { listId, userId } = ids(c, c.req.valid('param').listId);
    if (!(await deleteSpotList(c.var.db, listId, userId))) throw refusal(SPOT_LIST_REFUSALS, 'not-found');
    return c.json({ deleted: true as const, listId: listId.toHexString() }, 200);
  })
  .openapi(putSpot, async (c) => {
    const param = c.req.valid('param');
    const { listId, userId } = ids(c, param.listId);
    const outcome = await addSpotToList(c.var.db, listId, userId, new ObjectId(param.spotId));
    if (typeof outcome === 'string') throw refusal(SPOT_LIST_REFUSALS, outcome);
    return c.json(spotListView(outcome), 200);
  })
  .openapi(deleteSpot, async (c) => {
    const param = c.req.valid('param');
    const { listId, userId } = ids(c, param.listId);
    const outcome = await removeSpotFromList(c.var.db, listId, userId, new ObjectId(param.spotId));
    if (typeof outcome === 'string') throw refusal(SPOT_LIST_REFUSALS, outcome);
    return c.json(spotListView(outcome), 200);
  });
