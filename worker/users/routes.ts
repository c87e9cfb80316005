import { Hono } from 'hono';
import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { recordSignUp } from '../analytics/server-events';
import { hashPassword } from '../auth/password';
import { requireSetting } from '../config';
import type { AppEnv } from '../env';
import { ApiError } from '../http/errors';
import { IdParam } from '../http/ids';
import { validate } from '../http/validate';
import { accountOrAdmin } from '../middleware/account-or-admin';
import { auth } from '../middleware/auth';
import { describe } from '../openapi/describe';
import { deleteAccount } from './account-deletion';
import { AuthResponse, RegisterBody, UpdateMeBody, UpdateUserBody, User } from './schema';
import { insertUser, requireUser, sessionResponse, updateUser } from './service';
import { userView } from './views';

const accessErrors = {
  400: { description: 'Invalid token. (plain text)', text: true },
  401: { description: 'Access denied. No token provided. (plain text)', text: true },
};

export const userRoutes = new Hono<AppEnv>()
  .post(
    '/',
    describe({
      summary: 'Register with email and password',
      tags: ['accounts'],
      responses: {
        201: { description: 'Account created; token also in x-auth-token', schema: AuthResponse },
        409: { description: 'Email taken' },
      },
    }),
    validate('json', RegisterBody),
    async (c) => {
      // Fail on missing configuration before storing an account the caller gets no token for.
      requireSetting(c.env, 'JWT_SECRET');
      const { name, email, password } = c.req.valid('json');
      const user = await insertUser(c.var.db, { name, email, password: await hashPassword(password) });
      await recordSignUp(c.var.db, user._id, 'password');
      return sessionResponse(c, user, 201);
    },
  )
  .get(
    '/me',
    describe({
      summary: 'The signed-in account',
      tags: ['accounts'],
      responses: { 200: { description: 'The account', schema: User }, ...accessErrors },
    }),
    auth(),
    async (c) => c.json(userView(await requireUser(c.var.db, c.var.user._id))),
  )
  .patch(
    '/me',
    describe({
      summary: 'Update your name or picture',
      tags: ['accounts'],
      responses: { 200: { description: 'The account', schema: User }, ...accessErrors },
    }),
    auth(),
    validate('json', UpdateMeBody),
    async (c) => c.json(userView(await updateUser(c.var.db, new ObjectId(c.var.user._id), c.req.valid('json')))),
  )
  .patch(
    '/:id',
    describe({
      summary: 'Update an account (its owner or an admin)',
      tags: ['accounts'],
      responses: {
        200: { description: 'The account', schema: User },
        403: { description: 'Access denied. (plain text)', text: true },
        409: { description: 'Email taken' },
        ...accessErrors,
      },
    }),
    accountOrAdmin(),
    validate('param', IdParam),
    validate('json', UpdateUserBody),
    async (c) =>
      c.json(userView(await updateUser(c.var.db, new ObjectId(c.req.valid('param').id), c.req.valid('json')))),
  )
  .delete(
    '/:id',
    describe({
      summary: 'Delete an account and everything personal to it (its owner or an admin)',
      tags: ['accounts'],
      description:
        'Removes the user and their trick lists, tricks, spot lists, reviews, trick history, posts, reactions, comments, saved posts, companion chats and profile, push tokens, scheduled notifications, analytics events and event saves; spots they created stay, without a creator.',
      responses: {
        200: { description: 'Deleted', schema: z.object({ deleted: z.literal(true), userId: z.string() }) },
        403: { description: 'Access denied. (plain text)', text: true },
        404: { description: 'No such account' },
        ...accessErrors,
      },
    }),
    accountOrAdmin(),
    validate('param', IdParam),
    async (c) => {
      const userId = new ObjectId(c.req.valid('param').id);
      if (!(await c.var.db.users.countDocuments({ _id: userId }, { limit: 1 })))
        throw new ApiError(404, 'Account not found.');
      await deleteAccount(c.var.db, userId);
      return c.json({ deleted: true as const, userId: userId.toHexString() });
    },
  );
