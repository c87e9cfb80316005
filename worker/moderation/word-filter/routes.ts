import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { readEach, readOne } from '../../platform/db/stored-values';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { recordModeratorAction } from '../action-log/service';
import { forgetWordFilter } from './filter-cache';
import { readTerm } from './reader';
import { TERM_REFUSALS } from './refusals';
import { DeletedTerm, ModerationTerm, ModerationTermList, NewTerm, TermParam, TermRemoval } from './schema';
import { addTerm, listTerms, removeTerm } from './service';
import { termView } from './views';

const TAGS = ['moderation', 'admin'];
const IN_FORCE =
  'In force at once on the Worker that answered, and everywhere within a minute (each Worker reads the list every 30 s). Logged in the moderator action log with the reason.';

const list = defineRoute({
  method: 'get',
  path: '/moderation/terms',
  tags: TAGS,
  summary: "The word filter's terms admins added, oldest first (the built-in list is not shown)",
  middleware: [admin()] as const,
  responses: { 200: jsonResponse(ModerationTermList, 'The terms') },
});

const add = defineRoute({
  method: 'post',
  path: '/moderation/terms',
  tags: TAGS,
  summary:
    'Add a term to the word filter: refused in what riders publish, or allowed where the built-in list refuses it',
  description: IN_FORCE,
  middleware: [admin()] as const,
  request: jsonBody(NewTerm),
  responses: {
    201: jsonResponse(ModerationTerm, 'Listed'),
    409: errorResponse('The term is already listed, or the list is full'),
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/moderation/terms/{termId}',
  tags: TAGS,
  summary: 'Remove a term from the word filter',
  description: IN_FORCE,
  middleware: [admin()] as const,
  request: { params: TermParam, ...jsonBody(TermRemoval) },
  responses: { 200: jsonResponse(DeletedTerm, 'Removed'), 404: errorResponse('No such term') },
});

/** The word filter's term list, mounted under /api/admin. */
export const termRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const terms = readEach('moderation_terms', await listTerms(c.var.db), readTerm);
    return c.json({ items: terms.map(termView) }, 200);
  })
  .openapi(add, async (c) => {
    const { reason, ...term } = c.req.valid('json');
    const added = await addTerm(c.var.db, term);
    if (typeof added === 'string') throw refusal(TERM_REFUSALS, added);
    forgetWordFilter(c.var.db);
    await recordModeratorAction(c.var.db, {
      actorId: new ObjectId(c.var.user._id),
      action: 'term.add',
      target: { type: 'term', id: added._id, text: added.term },
      reason,
      details: { kind: added.kind, match: added.match },
    });
    return c.json(termView({ ...term, _id: added._id, createdAt: added.createdAt }), 201);
  })
  .openapi(remove, async (c) => {
    const removed = await removeTerm(c.var.db, new ObjectId(c.req.valid('param').termId));
    if (removed === 'not-found') throw refusal(TERM_REFUSALS, removed);
    forgetWordFilter(c.var.db);
    const text = readOne('moderation_terms', removed, readTerm)?.term;
    await recordModeratorAction(c.var.db, {
      actorId: new ObjectId(c.var.user._id),
      action: 'term.remove',
      target: { type: 'term', id: removed._id, ...(text ? { text } : {}) },
      reason: c.req.valid('json').reason,
    });
    return c.json({ deleted: true as const, termId: removed._id.toHexString() }, 200);
  });
