import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { IdParam } from '../../platform/http/ids';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../../platform/http/openapi';
import { pageOf } from '../../platform/http/pagination';
import { toReadPage } from '../../platform/http/read-pages';
import { refusal } from '../../platform/http/refusals';
import { admin } from '../../platform/middleware/admin';
import { readUser } from './read-user';
import { ACCOUNT_REFUSALS } from './refusals';
import { AdminUserQuery, AdminUserUpdate, User } from './schema';
import { searchUsers, updateUser } from './service';
import { userView } from './views';

const TAGS = ['admin'];

const listUsers = defineRoute({
  method: 'get',
  path: '/users',
  tags: TAGS,
  summary: 'Search accounts',
  middleware: [admin()] as const,
  request: { query: AdminUserQuery },
  responses: { 200: jsonResponse(pageOf(User), 'A page of accounts, newest first') },
});

const patchUser = defineRoute({
  method: 'patch',
  path: '/users/{id}',
  tags: TAGS,
  summary: "Set an account's role and analytics flags",
  middleware: [admin()] as const,
  request: { params: IdParam, ...jsonBody(AdminUserUpdate) },
  responses: { 200: jsonResponse(User, 'The account'), 404: errorResponse('No such account') },
});

/** Account management for admins, mounted under /api/admin. */
export const adminUserRoutes = createRouter<AppEnv>()
  .openapi(listUsers, async (c) => {
    const query = c.req.valid('query');
    const rows = await searchUsers(c.var.db, query);
    return c.json(
      toReadPage('users', rows, query.limit, (row) => {
        const user = readUser(row);
        return user && userView(user);
      }),
      200,
    );
  })
  .openapi(patchUser, async (c) => {
    const outcome = await updateUser(c.var.db, new ObjectId(c.req.valid('param').id), c.req.valid('json'));
    if (typeof outcome === 'string') throw refusal(ACCOUNT_REFUSALS, outcome);
    return c.json(userView(outcome), 200);
  });
