import { Hono } from 'hono';
import { type Filter, ObjectId } from 'mongodb';
import type { UserDoc } from '../db/documents';
import type { AppEnv } from '../env';
import { IdParam } from '../http/ids';
import { pageOf, toPage } from '../http/pagination';
import { validate } from '../http/validate';
import { admin } from '../middleware/admin';
import { describe } from '../openapi/describe';
import { User } from '../users/schema';
import { updateUser } from '../users/service';
import { userView } from '../users/views';
import { AdminUserQuery, AdminUserUpdate } from './schema';

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const adminErrors = {
  400: { description: 'Invalid token. (plain text)', text: true },
  401: { description: 'Access denied. (plain text)', text: true },
  403: { description: 'Access denied. Admin only. (plain text)', text: true },
};

export const adminUserRoutes = new Hono<AppEnv>()
  .get(
    '/users',
    describe({
      summary: 'Search accounts',
      tags: ['admin'],
      responses: { 200: { description: 'A page of accounts, newest first', schema: pageOf(User) }, ...adminErrors },
    }),
    admin(),
    validate('query', AdminUserQuery),
    async (c) => {
      const { q, limit, cursor } = c.req.valid('query');
      const filter: Filter<UserDoc> = {};
      if (q) {
        const pattern = new RegExp(escapeRegex(q), 'i');
        filter.$or = [{ name: pattern }, { email: pattern }];
      }
      if (cursor) filter._id = { $lt: cursor };
      const rows = await c.var.db.users
        .find(filter)
        .sort({ _id: -1 })
        .limit(limit + 1)
        .toArray();
      return c.json(toPage(rows, limit, userView));
    },
  )
  .patch(
    '/users/:id',
    describe({
      summary: "Set an account's role and analytics flags",
      tags: ['admin'],
      responses: {
        200: { description: 'The account', schema: User },
        404: { description: 'No such account' },
        ...adminErrors,
      },
    }),
    admin(),
    validate('param', IdParam),
    validate('json', AdminUserUpdate),
    async (c) =>
      c.json(userView(await updateUser(c.var.db, new ObjectId(c.req.valid('param').id), c.req.valid('json')))),
  );
