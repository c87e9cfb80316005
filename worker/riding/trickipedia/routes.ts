import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { IdParam } from '../../platform/http/ids';

import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { pageOf } from '../../platform/http/pagination';
import { toReadKeysetPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { indexDocuments, keepIndexed, unindexDocuments } from '../../platform/retrieval/vector-search';
import { trickDocument } from '../search-index/documents';
import { TRICKIPEDIA_REFUSALS } from './refusals';
import { DeletedEntry, EntryBody, EntryQuery, entryFields, TrickipediaEntry } from './schema';
import { deleteEntry, findEntry, insertEntry, replaceEntry, searchEntries } from './service';
import { entryView, storedEntryView } from './views';

const TAGS = ['trickipedia'];
const noEntry = errorResponse('No such entry');
const slugTaken = errorResponse('Another entry has this slug');

const search = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'Search the trick encyclopedia, in slug order',
  request: { query: EntryQuery },
  responses: { 200: jsonResponse(pageOf(TrickipediaEntry), 'A page of entries') },
});

const getOne = defineRoute({
  method: 'get',
  path: '/{id}',
  tags: TAGS,
  summary: 'One entry',
  request: { params: IdParam },
  responses: { 200: jsonResponse(TrickipediaEntry, 'The entry'), 404: noEntry },
});

const create = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Add an entry (admin)',
  description: 'A `category` no category has as its slug is a 400 naming the field.',
  middleware: [admin()] as const,
  request: jsonBody(EntryBody),
  responses: { 201: jsonResponse(TrickipediaEntry, 'The new entry'), 409: slugTaken },
});

const replace = defineRoute({
  method: 'put',
  path: '/{id}',
  tags: TAGS,
  summary: 'Replace an entry (admin)',
  description:
    "Every mutable field takes the body's value; optional fields left out are removed, a left-out slug is derived from the name again.",
  middleware: [admin()] as const,
  request: { params: IdParam, ...jsonBody(EntryBody) },
  responses: { 200: jsonResponse(TrickipediaEntry, 'The entry as stored now'), 404: noEntry, 409: slugTaken },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{id}',
  tags: TAGS,
  summary: 'Delete an entry (admin)',
  middleware: [admin()] as const,
  request: { params: IdParam },
  responses: { 200: jsonResponse(DeletedEntry, 'Deleted'), 404: noEntry },
});

/** The trick encyclopedia: public read, admin write (interface spec, Admin content). */
export const trickipediaRoutes = createRouter<AppEnv>()
  .openapi(search, async (c) => {
    const query = c.req.valid('query');
    const rows = await searchEntries(c.var.db, query);
    // An entry older code stored without a text slug sorts before every slug: the next page starts at the first.
    const keyOf = (row: { slug?: unknown }) => [typeof row.slug === 'string' ? row.slug : ''];
    return c.json(toReadKeysetPage('trickipedia', rows, query.limit, keyOf, storedEntryView), 200);
  })
  .openapi(getOne, async (c) => {
    const entry = await findEntry(c.var.db, new ObjectId(c.req.valid('param').id));
    if (!entry) throw refusal(TRICKIPEDIA_REFUSALS, 'not-found');
    return c.json(entryView(entry), 200);
  })
  .openapi(create, async (c) => {
    const outcome = await insertEntry(c.var.db, entryFields(c.req.valid('json')));
    if (typeof outcome === 'string') throw refusal(TRICKIPEDIA_REFUSALS, outcome);
    keepIndexed(c.env, c.var.inBackground, 'trick', () => indexDocuments(c.env, 'trick', [trickDocument(outcome)]));
    return c.json(entryView(outcome), 201);
  })
  .openapi(replace, async (c) => {
    const id = new ObjectId(c.req.valid('param').id);
    const outcome = await replaceEntry(c.var.db, id, entryFields(c.req.valid('json')));
    if (typeof outcome === 'string') throw refusal(TRICKIPEDIA_REFUSALS, outcome);
    keepIndexed(c.env, c.var.inBackground, 'trick', () => indexDocuments(c.env, 'trick', [trickDocument(outcome)]));
    return c.json(entryView(outcome), 200);
  })
  .openapi(remove, async (c) => {
    const id = c.req.valid('param').id;
    if ((await deleteEntry(c.var.db, new ObjectId(id))) === 'not-found')
      throw refusal(TRICKIPEDIA_REFUSALS, 'not-found');
    keepIndexed(c.env, c.var.inBackground, 'trick', () => unindexDocuments(c.env, 'trick', [id]));
    return c.json({ deleted: true as const, id }, 200);
  });
