import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { recordServerEvent } from '../../growth/analytics/server-events';
import { OBJECTIONABLE_TEXT, refuseObjectionable } from '../../moderation/word-filter/refuse';
import type { AppEnv } from '../../platform/app-env';
import { requireSetting } from '../../platform/config';
import { clientAddress } from '../../platform/http/client-address';
import { ApiError } from '../../platform/http/errors';
import {
  createRouter,
  defineRoute,
  errorResponse,
  jsonBody,
  jsonResponse,
  RETRY_AFTER,
} from '../../platform/http/openapi';
import { type Refusals, refusal } from '../../platform/http/refusals';
import { LIMITS } from '../../platform/limits';
import { hashPassword, verifyPassword } from '../../platform/tokens/password';
import type { UserDoc } from '../documents';
import { openSession, optsIn, SESSION_MODE_HEADER } from '../sessions/issue';
import { sessionSettings } from '../sessions/settings';
import { ACCOUNT_REFUSALS } from '../users/refusals';
import { findUserByEmail, insertUser } from '../users/service';
import { userView } from '../users/views';
import { type IdentityProvider, verifyIdentityToken } from './identity-token';
import { appleProvider, googleProvider } from './providers';
import { registrationLimit } from './registration-limit';
import {
  AppleSignInBody,
  appleDisplayName,
  GoogleSignInBody,
  IdpSession,
  RegisterBody,
  Session,
  SignInBody,
} from './schema';
import { type IdentityRefusal, type IdentitySignIn, signInWithApple, signInWithGoogle } from './service';
import { sessionBody } from './session-response';
import { underSignInLimit } from './sign-in-limit';

// Same answer for an unknown email and a wrong password: no probing for accounts.
const INVALID_CREDENTIALS = 'Invalid email or password.';

const IDENTITY_REFUSALS: Refusals<IdentityRefusal> = {
  'no-verified-email': { status: 401, message: 'Invalid Google token: the account has no verified email address.' },
  'no-email': {
    status: 400,
    message: 'Apple did not share an email address and no account is linked to this Apple ID.',
  },
  'unverified-email': { status: 401, message: 'Invalid Apple token: the email address is not verified.' },
  // An account deleted while this sign-in ran gets no session: 404, as for any gone account.
  'account-gone': ACCOUNT_REFUSALS['not-found'],
};

const TAGS = ['sign-in'];
const OPT_IN =
  'Send `x-session-mode: refresh` to get an access token that expires (`expiresIn` seconds) and a `refreshToken` (docs/sessions.md); without it, the Live token that never expires.';
const SESSION_HEADER = z.object({ 'x-auth-token': z.string().describe('the same token as the body') });
const tokenRefusals = {
  401: errorResponse('Token rejected; the message gives the reason'),
  502: errorResponse("The provider's signing keys could not be fetched"),
};
const { maxFailuresPerEmail, maxFailuresPerAddress, windowMs } = LIMITS.signIn;

const registration = LIMITS.registration;
const register = defineRoute({
  method: 'post',
  path: '/users',
  tags: TAGS,
  summary: 'Register with email and password',
  description: `At most ${registration.perAddress} attempts per client address (an IPv6 address by its /64) per hour, and ${registration.total} across the service; then 429 with Retry-After. Every attempt counts, whatever its answer: a taken email's 409 and a body failing validation too. Both are settings (REGISTRATIONS_PER_ADDRESS_PER_HOUR, REGISTRATIONS_PER_HOUR): a school registering a class behind one address needs the first raised. ${OPT_IN}`,
  middleware: [registrationLimit()] as const,
  request: jsonBody(RegisterBody),
  responses: {
    201: jsonResponse(Session, 'Account created; the token is also in the x-auth-token header', SESSION_HEADER),
    409: errorResponse('Email taken'),
    ...OBJECTIONABLE_TEXT,
    429: errorResponse(
      'Too many registration attempts from this address, or across the service; Retry-After gives the seconds to wait',
      RETRY_AFTER,
    ),
  },
});

const passwordSignIn = defineRoute({
  method: 'post',
  path: '/auth',
  tags: TAGS,
  summary: 'Sign in with email and password',
  description: `At most ${maxFailuresPerEmail} failed attempts per ${windowMs / 60_000} minutes per email, and ${maxFailuresPerAddress} (configurable) per client address; then 429 with Retry-After, even for the right password. ${OPT_IN}`,
  request: jsonBody(SignInBody),
  responses: {
    200: jsonResponse(Session, 'Signed in; the token is also in the x-auth-token header', SESSION_HEADER),
    400: errorResponse(INVALID_CREDENTIALS),
    429: errorResponse('Too many failed attempts; Retry-After gives the seconds to wait', RETRY_AFTER),
  },
});

const googleSignIn = defineRoute({
  method: 'post',
  path: '/auth/google',
  tags: TAGS,
  summary: 'Sign in with a Google ID token',
  description: OPT_IN,
  request: jsonBody(GoogleSignInBody),
  responses: { 200: jsonResponse(IdpSession, 'Signed in', SESSION_HEADER), ...tokenRefusals },
});

const appleSignIn = defineRoute({
  method: 'post',
  path: '/auth/apple',
  tags: TAGS,
  summary: 'Sign in with an Apple identity token',
  description: `Optional \`name\` (string or name parts) is used on first sign-in; without one the name is "Apple User". ${OPT_IN}`,
  request: jsonBody(AppleSignInBody),
  responses: {
    200: jsonResponse(IdpSession, 'Signed in', SESSION_HEADER),
    400: errorResponse('Apple shared no email and no account is linked to this Apple ID'),
    ...tokenRefusals,
  },
});

/**
 * Session body plus the `x-auth-token` header, as Live clients read a sign-in; a client sending
 * `x-session-mode: refresh` gets an expiring token and a refresh token instead (docs/sessions.md).
 */
async function withSession(c: Context<AppEnv>, user: UserDoc) {
  const session = optsIn(c.req.header(SESSION_MODE_HEADER))
    ? { ...(await openSession(c.env, c.var.db, user, c.req.header('user-agent'))), user: userView(user) }
    : await sessionBody(c.env, user);
  c.header('x-auth-token', session.token);
  return session;
}

async function verifiedClaims(token: string, provider: IdentityProvider) {
  const outcome = await verifyIdentityToken(token, provider);
  if (outcome.ok) return outcome.payload;
  if (outcome.problem === 'keys-unavailable') {
    throw new ApiError(502, `Could not fetch ${provider.label}'s signing keys to verify the token.`);
  }
  throw new ApiError(401, `Invalid ${provider.label} token: ${outcome.reason}.`);
}

function signedIn(outcome: IdentitySignIn | IdentityRefusal): IdentitySignIn {
  if (typeof outcome === 'string') throw refusal(IDENTITY_REFUSALS, outcome);
  return outcome;
}

/** Every route that hands out a session token: registration and the three sign-ins. Mounted under /api. */
export const signInRoutes = createRouter<AppEnv>()
  .openapi(register, async (c) => {
    // Fail on missing configuration before storing an account the caller gets no token for.
    requireSetting(c.env, 'JWT_SECRET');
    if (optsIn(c.req.header(SESSION_MODE_HEADER))) sessionSettings(c.env);
    const { name, email, password } = c.req.valid('json');
    await refuseObjectionable(c, { name });
    const user = await insertUser(c.var.db, {
      name,
      email,
      emailVerified: false,
      password: await hashPassword(password),
    });
    if (typeof user === 'string') throw refusal(ACCOUNT_REFUSALS, user);
    await recordServerEvent(c.var.db, user._id, 'signup_completed', { method: 'password' });
    return c.json(await withSession(c, user), 201);
  })
  .openapi(passwordSignIn, async (c) => {
    const { email, password } = c.req.valid('json');
    const found: { user?: UserDoc | null } = {};
    const wrong = await underSignInLimit(c.env, email, clientAddress(c.env, c.req.raw), async () => {
      found.user = await findUserByEmail(c.var.db, email);
      return !(await verifyPassword(password, found.user?.password));
    });
    if (wrong || !found.user) throw new ApiError(400, INVALID_CREDENTIALS);
    return c.json(await withSession(c, found.user), 200);
  })
  .openapi(googleSignIn, async (c) => {
    const payload = await verifiedClaims(c.req.valid('json').idToken, googleProvider(c.env));
    const { user, isNewUser } = signedIn(await signInWithGoogle(c.var.db, payload));
    return c.json({ ...(await withSession(c, user)), isNewUser }, 200);
  })
  .openapi(appleSignIn, async (c) => {
    const { identityToken, name } = c.req.valid('json');
    const payload = await verifiedClaims(identityToken, appleProvider(c.env));
    const { user, isNewUser } = signedIn(await signInWithApple(c.var.db, payload, appleDisplayName(name)));
    return c.json({ ...(await withSession(c, user)), isNewUser }, 200);
  });
