import type { Context } from 'hono';
import { ObjectId } from 'mongodb';
import { OBJECTIONABLE_TEXT, refuseObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import { type Cleanup, collectionsCleaned } from '../../platform/db/personal-data';
import { ApiError } from '../../platform/http/errors';
import { IdParam } from '../../platform/http/ids';
import {
  createRouter,
  defineRoute,
  errorResponse,
  jsonBody,
  jsonResponse,
  RETRY_AFTER,
} from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { accountOrAdmin } from '../../platform/middleware/account-or-admin';
import { auth } from '../../platform/middleware/auth';
import { logEvent } from '../../platform/ops/log-line';
import { checkIdentityProof, type IdentityProof, proofNotTaken } from '../sign-in/identity-proof';
import { ACCOUNT_REFUSALS } from './refusals';
import { DeletedAccount, UpdateMeBody, UpdateUserBody, User } from './schema';
import { accountExists, changeAddress, deleteAccount, findUserById, updateUser } from './service';
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
  description:
    "`imageMediaId` names a photo you uploaded (docs/media.md): it becomes your profile picture and `imageUri` its public URL; the picture it replaces is deleted. Another rider's upload is a 404, one attached to a post a 409.",
  middleware: [auth()] as const,
  request: jsonBody(UpdateMeBody),
  responses: {
    200: theAccount,
    404: errorResponse('No such account, or imageMediaId names no upload of yours'),
    409: errorResponse('The upload is attached to a post'),
    ...OBJECTIONABLE_TEXT,
  },
});

const patchUser = defineRoute({
  method: 'patch',
  path: '/{id}',
  tags: TAGS,
  summary: 'Update an account (its owner or an admin)',
  description:
    "A new `email` needs `currentPassword` when the account has a password, and `identityProof` (a fresh Google or Apple ID token for the account) when it has none (an admin changing another rider's address needs neither); the new address is unproved (`emailVerified: false`) and every other session of the account is revoked, its access tokens refused and its sockets closed (docs/accounts.md).",
  middleware: [accountOrAdmin()] as const,
  request: { params: IdParam, ...jsonBody(UpdateUserBody) },
  responses: {
    200: theAccount,
    400: errorResponse(
      "currentPassword missing or incorrect, identityProof missing, stale, not verifiable or another account's, or either sent without a new email",
    ),
    404: noAccount,
    409: errorResponse('Email taken, or the address changed meanwhile'),
    ...OBJECTIONABLE_TEXT,
    429: errorResponse('Too many wrong passwords; Retry-After gives the seconds to wait', RETRY_AFTER),
    502: errorResponse("The identity provider's signing keys could not be fetched to verify identityProof"),
  },
});

const deleteUserRoute = (personalData: readonly Cleanup[]) =>
  defineRoute({
    method: 'delete',
    path: '/{id}',
    tags: TAGS,
    summary: 'Delete an account and everything personal to it (its owner or an admin)',
    description: `Removes the user and everything personal to them in ${collectionsCleaned(personalData).join(', ')}: their own documents go; shared ones (spots they created, direct messages they sent, conversations, reports, blog posts, policy history) stay for the others without naming them (a message's sender reads null).`,
    middleware: [accountOrAdmin()] as const,
    request: { params: IdParam },
    responses: { 200: jsonResponse(DeletedAccount, 'Deleted'), 404: noAccount },
  });

/**
 * What the account routes need from elsewhere, handed in where the app is composed: the sign-in and session
 * checks an address change makes, and every domain's personal-data cleanups for a deletion.
 */
export interface UserRouteDeps {
  /** What deleting an account does to each collection (worker/data.ts composes them). */
  personalData: readonly Cleanup[];
  /** Throws the refusal (400 wrong, 429 limited) unless `given` is the account's current password. */
  checkCurrentPassword(c: Context<AppEnv>, account: { email: string; password: string }, given: string): Promise<void>;
  /** Makes the rider's uploaded photo their picture, imageUri included; throws the refusal (404, 409, 400) otherwise. */
  profilePicture(c: Context<AppEnv>, userId: ObjectId, mediaId: ObjectId): Promise<string>;
  /** Ends every session of the account but `keep` as signing each out would: their tokens refused, sockets closed. */
  endOtherSessions(c: Context<AppEnv>, userId: ObjectId, keep: ObjectId | undefined): Promise<void>;
  /** Closes every socket of an account just deleted. */
  closeDeletedAccountSockets(c: Context<AppEnv>, userId: ObjectId): Promise<void>;
}

const passwordRequired = () =>
  new ApiError(400, 'currentPassword is required to change the email of an account with a password.', {
    details: [{ field: 'currentPassword', message: 'is required with a new email' }],
  });

const proofWithoutEmail = (field: 'currentPassword' | 'identityProof') =>
  new ApiError(400, `${field} is only taken with a new email.`, {
    details: [{ field, message: 'must be sent only with a new email' }],
  });

/**
 * A new address for the account: its owner proves it is them with the current password, or with a fresh Google or
 * Apple ID token when the account has no password; an admin acting on another rider needs neither and is logged. The address becomes unproved, so an identity
 * provider that later proves it belongs to someone else takes the account over for them (docs/accounts.md).
 */
async function moveAddress(
  c: Context<AppEnv>,
  deps: UserRouteDeps,
  id: ObjectId,
  body: { email: string; currentPassword?: string; identityProof?: IdentityProof; name?: string; imageUri?: string },
) {
  const { email, currentPassword, identityProof, ...rest } = body;
  const target = await findUserById(c.var.db, id);
  if (!target) throw refusal(ACCOUNT_REFUSALS, 'not-found');
  const byOwner = c.var.account._id.equals(id);
  if (target.email === email) {
    if (currentPassword !== undefined) throw proofWithoutEmail('currentPassword');
    if (identityProof !== undefined) throw proofWithoutEmail('identityProof');
    return updateUser(c.var.db, id, rest);
  }
  if (byOwner && target.password) {
    if (identityProof !== undefined) throw proofNotTaken();
    if (currentPassword === undefined) throw passwordRequired();
    await deps.checkCurrentPassword(c, { email: target.email, password: target.password }, currentPassword);
  } else if (byOwner) await checkIdentityProof(c.env, target, identityProof, 'change the email address');
  const outcome = await changeAddress(c.var.db, id, target.email, { ...rest, email });
  if (typeof outcome === 'string') throw refusal(ACCOUNT_REFUSALS, outcome);
  if (!byOwner) {
    logEvent('accounts.email.changed-by-admin', { adminId: c.var.account._id.toHexString(), userId: id.toHexString() });
  }
  // The caller's own session stays; an admin's is not one of this account's.
  const keep = byOwner && c.var.sessionId ? new ObjectId(c.var.sessionId) : undefined;
  await deps.endOtherSessions(c, id, keep);
  return outcome;
}

/** The signed-in rider's own account, and the account-or-admin routes on any account. */
export const userRoutes = (deps: UserRouteDeps) => {
  const deleteUser = deleteUserRoute(deps.personalData);
  return (
    createRouter<AppEnv>()
      // The account auth() loaded is the one to show: no second read.
      .openapi(getMe, (c) => c.json(userView(c.var.account), 200))
      .openapi(patchMe, async (c) => {
        const { imageMediaId, ...changes } = c.req.valid('json');
        await refuseObjectionable(c, { name: changes.name });
        const userId = new ObjectId(c.var.user._id);
        // profilePicture writes imageUri itself, in the write that tells which picture it replaced; writing it
        // again here could put back a picture a racing change already let go.
        if (imageMediaId) await deps.profilePicture(c, userId, new ObjectId(imageMediaId));
        const outcome = await updateUser(c.var.db, userId, changes);
        if (typeof outcome === 'string') throw refusal(ACCOUNT_REFUSALS, outcome);
        return c.json(userView(outcome), 200);
      })
      .openapi(patchUser, async (c) => {
        const id = new ObjectId(c.req.valid('param').id);
        const { email, currentPassword, identityProof, ...rest } = c.req.valid('json');
        if (email === undefined && currentPassword !== undefined) throw proofWithoutEmail('currentPassword');
        if (email === undefined && identityProof !== undefined) throw proofWithoutEmail('identityProof');
        await refuseObjectionable(c, { name: rest.name });
        const outcome =
          email === undefined
            ? await updateUser(c.var.db, id, rest)
            : await moveAddress(c, deps, id, { email, currentPassword, identityProof, ...rest });
        if (typeof outcome === 'string') throw refusal(ACCOUNT_REFUSALS, outcome);
        return c.json(userView(outcome), 200);
      })
      .openapi(deleteUser, async (c) => {
        const userId = new ObjectId(c.req.valid('param').id);
        if (!(await accountExists(c.var.db, userId))) throw refusal(ACCOUNT_REFUSALS, 'not-found');
        await deleteAccount(c.var.db, c.env.MEDIA, userId, deps.personalData);
        // After the account is gone, so a reconnect is refused.
        await deps.closeDeletedAccountSockets(c, userId);
        return c.json({ deleted: true as const, userId: userId.toHexString() }, 200);
      })
  );
};
