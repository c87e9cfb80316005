import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { IdParam } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { pageOf } from '../../platform/http/pagination';
import { toReadKeysetPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { slugify } from '../../platform/http/slug';
import { admin } from '../../platform/middleware/admin';
import { CATEGORY_REFUSALS } from './refusals';
import { Category, CategoryQuery, CategoryUpdate, DeletedCategory, NewCategory } from './schema';
import { deleteCategory, insertCategory, listCategories, updateCategory } from './service';
import { categoryView, storedCategoryView } from './views';

const TAGS = ['categories'];
const noCategory = errorResponse('No such category');

const list = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: 'Trick categories, in slug order',
  request: { query: CategoryQuery },
  responses: { 200: jsonResponse(pageOf(Category), 'A page of categories') },
});

const create = defineRoute({
  method: 'post',
  path: '/',
  tags: TAGS,
  summary: 'Create a category (admin)',
  middleware: [admin()] as const,
  request: jsonBody(NewCategory),
  responses: { 201: jsonResponse(Category, 'The new category'), 409: errorResponse('Slug taken') },
});

const update = defineRoute({
  method: 'patch',
  path: '/{id}',
  tags: TAGS,
  summary: 'Change a category (admin); the fields sent are merged',
  middleware: [admin()] as const,
  request: { params: IdParam, ...jsonBody(CategoryUpdate) },
  responses: {
    200: jsonResponse(Category, 'The category'),
    404: noCategory,
    409: errorResponse('Slug taken, or a new slug while trickipedia entries reference the category'),
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/{id}',
  tags: TAGS,
  summary: 'Delete a category (admin) that no trickipedia entry references',
  middleware: [admin()] as const,
  request: { params: IdParam },
  responses: {
    200: jsonResponse(DeletedCategory, 'Deleted'),
    404: noCategory,
    409: errorResponse('Trickipedia entries reference it; the message says how many'),
  },
});

/** Trick categories: public read, admin write. Trickipedia entries reference them by slug. */
export const categoryRoutes = createRouter<AppEnv>()
  .openapi(list, async (c) => {
    const query = c.req.valid('query');
    const rows = await listCategories(c.var.db, query);
    // A category older code stored without a text slug sorts before every slug: the next page starts at the first.
    const keyOf = (row: { slug?: unknown }) => [typeof row.slug === 'string' ? row.slug : ''];
    return c.json(toReadKeysetPage('categories', rows, query.limit, keyOf, storedCategoryView), 200);
  })
  .openapi(create, async (c) => {
    const body = c.req.valid('json');
    const outcome = await insertCategory(c.var.db, { ...body, slug: body.slug ?? slugify(body.name) });
    if (typeof outcome === 'string') throw refusal(CATEGORY_REFUSALS, outcome);
    return c.json(categoryView(outcome), 201);
  })
  .openapi(update, async (c) => {
    const outcome = await updateCategory(c.var.db, new ObjectId(c.req.valid('param').id), c.req.valid('json'));
    if (typeof outcome === 'string' || 'referencedBy' in outcome) throw refusal(CATEGORY_REFUSALS, outcome);
    return c.json(categoryView(outcome), 200);
  })
  .openapi(remove, async (c) => {
    const id = c.req.valid('param').id;
    const outcome = await deleteCategory(c.var.db, new ObjectId(id));
    if (outcome !== 'deleted') throw refusal(CATEGORY_REFUSALS, outcome);
    return c.json({ deleted: true as const, id }, 200);
  });
