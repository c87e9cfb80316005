import { ObjectId } from 'mongodb';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/http/errors';
import {
  createRouter,
  defineRoute,
  errorResponse,
  jsonBody,
  jsonResponse,
  RETRY_AFTER,
} from '../../platform/http/openapi';
import { refusal } from '../../platform/http/refusals';
import { auth } from '../../platform/middleware/auth';
import { hashPassword } from '../../platform/tokens/password';
import { checkIdentityProof, proofNotTaken } from '../sign-in/identity-proof';
import { ACCOUNT_REFUSALS } from '../users/refusals';
import { findUserById, replacePassword } from '../users/service';
import { checkCurrentPassword, WRONG_PASSWORD } from './current-password';
import { accessToken, legacyToken } from './issue';
import { PasswordChangeBody, PasswordChanged, TOKEN_HEADER } from './schema';
import { revokeOtherSessions } from './service';
import { closeEndedSockets } from './sockets';

const changePassword = defineRoute({
  method: 'put',
  path: '/users/me/password',
  tags: ['sessions'],
  summary: 'Change your password; every other session and every earlier token is ended',
  description:
    'Every token of the account signed before the change is refused from now on (legacy ones included) and its open sockets are closed; the caller gets a new token, and an opt-in caller keeps its session. A wrong current password is a 400 and counts toward the sign-in limit (then 429). An identity-provider-only account sets its first password with `currentPassword` absent and `identityProof`: a fresh Google or Apple ID token for the account (a session token alone is no proof). See docs/sessions.md.',
  middleware: [auth()] as const,
  request: jsonBody(PasswordChangeBody),
  responses: {
    200: jsonResponse(PasswordChanged, 'Changed; the new token is also in the x-auth-token header', TOKEN_HEADER),
    400: errorResponse(
      `${WRONG_PASSWORD}, or currentPassword missing or not expected, or identityProof missing, stale, not verifiable, another account's or not expected`,
    ),
    404: errorResponse('No such account'),
    409: errorResponse('The password changed meanwhile; try again'),
    429: errorResponse('Too many failed attempts; Retry-After gives the seconds to wait', RETRY_AFTER),
    502: errorResponse("The identity provider's signing keys could not be fetched to verify identityProof"),
  },
});

/** `PUT /api/users/me/password`. Mounted under /api. */
export const passwordRoutes = createRouter<AppEnv>().openapi(changePassword, async (c) => {
  const { currentPassword, identityProof, newPassword } = c.req.valid('json');
  const userId = new ObjectId(c.var.user._id);
  const user = await findUserById(c.var.db, userId);
  if (!user) throw refusal(ACCOUNT_REFUSALS, 'not-found');
  if (user.password) {
    if (identityProof !== undefined) throw proofNotTaken();
    if (currentPassword === undefined) {
      throw new ApiError(400, 'currentPassword is required to change a password.', {
        details: [{ field: 'currentPassword', message: 'is required' }],
      });
    }
    await checkCurrentPassword(c, { email: user.email, password: user.password }, currentPassword);
  } else if (currentPassword !== undefined) {
    throw new ApiError(400, 'This account has no password yet: send newPassword alone.', {
      details: [{ field: 'currentPassword', message: 'must be absent: the account has no password' }],
    });
  } else await checkIdentityProof(c.env, user, identityProof, 'set a first password');
  const changed = await replacePassword(c.var.db, userId, user.password, await hashPassword(newPassword));
  if (!changed) throw new ApiError(409, 'The password changed meanwhile; try again.');
  const sessionId = c.var.sessionId;
  const revokedSessions = await revokeOtherSessions(c.var.db, userId, sessionId ? new ObjectId(sessionId) : undefined);
  await closeEndedSockets(c, userId, { belowVersion: changed.tokenVersion ?? 0 });
  // The change ended every earlier token, the caller's too: it goes on with one signed at the new version.
  const fresh = sessionId ? await accessToken(c.env, changed, sessionId) : { token: await legacyToken(c.env, changed) };
  c.header('x-auth-token', fresh.token);
  return c.json({ changed: true as const, revokedSessions, ...fresh }, 200);
});
