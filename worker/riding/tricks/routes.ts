import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { pageOf } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { moveRemindersOffTrick } from '../reminders/service';
import { TRICK_REFUSALS } from '../tricklists/refusals';
import { ListIdParam } from '../tricklists/schema';
import { readTrick } from './reader';
import { DeletedTrick, NewTrickBody, Trick, TrickChanges, TrickParams, TrickQuery } from './schema';
import { addTrick, deleteTrick, findTricks, landTrick, logAttempt, type TrickOwner, updateTrick } from './service';
import { trickView } from './views';

const TAGS = ['tricks'];
const noList = errorResponse('No such list of yours (another rider’s list answers the same)');
const noTrick = errorResponse('No such trick in this list of yours');
const theTrick = jsonResponse(Trick, 'The trick');

const listTricks = defineRoute({
  method: 'get',
  path: '/{listId}/tricks',
  tags: TAGS,
  summary: "A list's tricks, newest first",
  middleware: [auth()] as const,
  request: { params: ListIdParam, query: TrickQuery },
  responses: { 200: jsonResponse(pageOf(Trick), 'A page of tricks'), 404: noList },
});

const createTrick = defineRoute({
  method: 'post',
  path: '/{listId}/tricks',
  tags: TAGS,
  summary: 'Add a trick to one of your lists',
  middleware: [auth()] as const,
  request: { params: ListIdParam, ...jsonBody(NewTrickBody) },
  responses: { 201: jsonResponse(Trick, 'The new trick'), 404: noList },
});

const patchTrick = defineRoute({
  method: 'patch',
  path: '/{listId}/tricks/{trickId}',
  tags: TAGS,
  summary: 'Rename a trick, link it to trickipedia, or set its status to todo or learning',
  middleware: [auth()] as const,
  request: { params: TrickParams, ...jsonBody(TrickChanges) },
  responses: { 200: theTrick, 404: noTrick },
});

const removeTrick = defineRoute({
  method: 'delete',
  path: '/{listId}/tricks/{trickId}',
  tags: TAGS,
  summary: 'Delete a trick',
  middleware: [auth()] as const,
  request: { params: TrickParams },
  responses: { 200: jsonResponse(DeletedTrick, 'Deleted'), 404: noTrick },
});

const attempt = defineRoute({
  method: 'post',
  path: '/{listId}/tricks/{trickId}/attempts',
  tags: TAGS,
  summary: 'Log one attempt (a todo trick becomes learning)',
  middleware: [auth()] as const,
  request: { params: TrickParams },
  responses: { 200: theTrick, 404: noTrick },
});

const land = defineRoute({
  method: 'post',
  path: '/{listId}/tricks/{trickId}/land',
  tags: TAGS,
  summary:
    "Land the trick: status landed, completed, landedAt set once (landing again changes nothing); the list's pending reminders naming it move to its next unfinished trick",
  middleware: [auth()] as const,
  request: { params: TrickParams },
  responses: { 200: theTrick, 404: noTrick },
});

const ownerOf = (callerId: string, listId: string): TrickOwner => ({
  userId: new ObjectId(callerId),
  listId: new ObjectId(listId),
});

/** Tricks in a rider's own lists, mounted under /api/tricklists beside worker/riding/tricklists/routes.ts. */
export const trickRoutes = createRouter<AppEnv>()
  .openapi(listTricks, async (c) => {
    const query = c.req.valid('query');
    const rows = await findTricks(c.var.db, ownerOf(c.var.user._id, c.req.valid('param').listId), query);
    if (rows === 'list-not-found') throw refusal(TRICK_REFUSALS, rows);
    const page = toReadPage('tricks', rows, query.limit, (row) => {
      const trick = readTrick(row);
      return trick && trickView(trick);
    });
    return c.json(page, 200);
  })
  .openapi(createTrick, async (c) => {
    const { trickipediaId, ...fields } = c.req.valid('json');
    const outcome = await addTrick(c.var.db, ownerOf(c.var.user._id, c.req.valid('param').listId), {
      ...fields,
      ...(trickipediaId ? { trickipediaId: new ObjectId(trickipediaId) } : {}),
    });
    if (typeof outcome === 'string') throw refusal(TRICK_REFUSALS, outcome);
    return c.json(trickView(outcome), 201);
  })
  .openapi(patchTrick, async (c) => {
    const { listId, trickId } = c.req.valid('param');
    const { trickipediaId, ...changes } = c.req.valid('json');
    const outcome = await updateTrick(c.var.db, ownerOf(c.var.user._id, listId), new ObjectId(trickId), {
      ...changes,
      ...(trickipediaId !== undefined
        ? { trickipediaId: trickipediaId === null ? null : new ObjectId(trickipediaId) }
        : {}),
    });
    if (typeof outcome === 'string') throw refusal(TRICK_REFUSALS, outcome);
    return c.json(trickView(outcome), 200);
  })
  .openapi(removeTrick, async (c) => {
    const { listId, trickId } = c.req.valid('param');
    const owner = ownerOf(c.var.user._id, listId);
    if (!(await deleteTrick(c.var.db, owner, new ObjectId(trickId)))) throw refusal(TRICK_REFUSALS, 'not-found');
    await moveRemindersOffTrick(c.var.db, owner, new ObjectId(trickId));
    return c.json({ deleted: true as const, trickId }, 200);
  })
  .openapi(attempt, async (c) => {
    const { listId, trickId } = c.req.valid('param');
    const trick = await logAttempt(c.var.db, ownerOf(c.var.user._id, listId), new ObjectId(trickId));
    if (!trick) throw refusal(TRICK_REFUSALS, 'not-found');
    return c.json(trickView(trick), 200);
  })
  .openapi(land, async (c) => {
    const { listId, trickId } = c.req.valid('param');
    const owner = ownerOf(c.var.user._id, listId);
    const trick = await landTrick(c.var.db, owner, new ObjectId(trickId));
    if (!trick) throw refusal(TRICK_REFUSALS, 'not-found');
    // Landed: its reminders name the next trick from now on (docs/reminders.md).
    await moveRemindersOffTrick(c.var.db, owner, trick._id);
    return c.json(trickView(trick), 200);
  });
