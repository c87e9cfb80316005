import { ObjectId } from 'mongodb';
import type { AppEnv } from '../app-env';
import { IdParam } from '../http/ids';
import { createRouter, defineRoute, errorResponse, jsonBody, jsonResponse } from '../http/openapi';
import { accountOrAdmin } from '../middleware/account-or-admin';
import { auth } from '../middleware/auth';
import { PERSONAL_COLLECTIONS } from './account-deletion';
import { refusal } from './refusals';
import { DeletedAccount, UpdateMeBody, UpdateUserBody, User } from './schema';
import { accountExists, deleteAccount, findUserById, updateUser } from './service';
import { userView } from './views';

const TAGS = ['accounts'];
const theAccount = jsonResponse(User, 'The account');
const noAccount = errorResponse('No such account');

const getMe = defineRoute({
  method: 'get',
  path: '/me',
  tags: TAGS,
  summary: 'The signed-in account',
  middleware: [auth()] as const,
  responses: { 200: theAccount, 404: noAccount },
});

const patchMe = defineRoute({
  method: 'patch',
  path: '/me',
  tags: TAGS,
  summary: 'Update your name or picture',
  middleware: [auth()] as const,
  request: jsonBody(UpdateMeBody),
  responses: { 200: theAccount, 404: noAccount },
});

const patchUser = defineRoute({
  method: 'patch',
  path: '/{id}',
  tags: TAGS,
  summary: 'Update an account (its owner or an admin)',
  middleware: [accountOrAdmin()] as const,
  request: { params: IdParam, ...jsonBody(UpdateUserBody) },
  responses: { 200: theAccount, 404: noAccount, 409: errorResponse('Email taken') },
});

const deleteUser = defineRoute({
  method: 'delete',
  path: '/{id}',
  tags: TAGS,
  summary: 'Delete an account and everything personal to it (its owner or an admin)',
  description: `Removes the user and everything personal to them in ${PERSONAL_COLLECTIONS.join(', ')}: their own documents go; shared ones (spots they created, direct messages they sent, conversations, reports, blog posts, policy history) stay for the others without naming them (a message's sender reads null).`,
  middleware: [accountOrAdmin()] as const,
  request: { params: IdParam },
  responses: { 200: jsonResponse(DeletedAccount, 'Deleted'), 404: noAccount },
});

/** The signed-in rider's own account, and the account-or-admin routes on any account. */
export const userRoutes = createRouter<AppEnv>()
  .openapi(getMe, async (c) => {
    const user = await findUserById(c.var.db, new ObjectId(c.var.user._id));
    if (!user) throw refusal('not-found');
    return c.json(userView(user), 200);
  })
  .openapi(patchMe, async (c) => {
    const outcome = await updateUser(c.var.db, new ObjectId(c.var.user._id), c.req.valid('json'));
    if (typeof outcome === 'string') throw refusal(outcome);
    return c.json(userView(outcome), 200);
  })
  .openapi(patchUser, async (c) => {
    const outcome = await updateUser(c.var.db, new ObjectId(c.req.valid('param').id), c.req.valid('json'));
    if (typeof outcome === 'string') throw refusal(outcome);
    return c.json(userView(outcome), 200);
  })
  .openapi(deleteUser, async (c) => {
    const userId = new ObjectId(c.req.valid('param').id);
    if (!(await accountExists(c.var.db, userId))) throw refusal('not-found');
    await deleteAccount(c.var.db, userId);
    return c.json({ deleted: true as const, userId: userId.toHexString() }, 200);
  });
