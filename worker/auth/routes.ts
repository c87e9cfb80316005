import { Hono } from 'hono';
import type { UserDoc } from '../db/documents';
import type { AppEnv } from '../env';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { describe } from '../openapi/describe';
import { AuthResponse, IdpAuthResponse, SignInBody } from '../users/schema';
import { sessionResponse } from '../users/service';
import { signInWithApple, signInWithGoogle } from './identity-sign-in';
import { verifyIdentityToken } from './identity-token';
import { verifyPassword } from './password';
import { appleProvider, googleProvider } from './providers';
import { AppleSignInBody, appleDisplayName, GoogleSignInBody } from './schema';
import { beginSignInAttempt, clientIp } from './sign-in-limit';

// Same answer for an unknown email and a wrong password: no probing for accounts.
const INVALID_CREDENTIALS = 'Invalid email or password.';

const errorResponses = {
  401: { description: 'Token rejected (reason given)' },
  502: { description: 'Provider keys unreachable' },
};

export const authRoutes = new Hono<AppEnv>()
  .post(
    '/',
    describe({
      summary: 'Sign in with email and password',
      tags: ['auth'],
      description:
        'At most 5 failed attempts per 15 minutes per email and per client IP; then 429 with Retry-After, even for the right password.',
      responses: {
        200: { description: 'Signed in; the token is also in the x-auth-token header', schema: AuthResponse },
        400: { description: 'Invalid email or password.' },
        429: { description: 'Too many failed attempts' },
      },
    }),
    validate('json', SignInBody),
    async (c) => {
      const { email, password } = c.req.valid('json');
      const attempt = await beginSignInAttempt(c.env, [`email:${email}`, `ip:${clientIp((n) => c.req.header(n))}`]);
      // A database error settles as "not failed": only a wrong password counts.
      let failed = false;
      let user: UserDoc | null = null;
      try {
        user = await c.var.db.users.findOne({ email });
        failed = !(await verifyPassword(password, user?.password));
      } finally {
        await attempt.settle(failed);
      }
      if (failed || !user) throw new ApiError(400, INVALID_CREDENTIALS);
      return sessionResponse(c, user, 200);
    },
  )
  .post(
    '/google',
    describe({
      summary: 'Sign in with a Google ID token',
      tags: ['auth'],
      responses: { 200: { description: 'Signed in', schema: IdpAuthResponse }, ...errorResponses },
    }),
    validate('json', GoogleSignInBody),
    async (c) => {
      const payload = await verifyIdentityToken(c.req.valid('json').idToken, googleProvider(c.env));
      const { user, isNewUser } = await signInWithGoogle(c.var.db, payload);
      return sessionResponse(c, user, 200, { isNewUser });
    },
  )
  .post(
    '/apple',
    describe({
      summary: 'Sign in with an Apple identity token',
      tags: ['auth'],
      description:
        'Optional `name` (string or name parts) is used on first sign-in; without one the name is "Apple User".',
      responses: {
        200: { description: 'Signed in', schema: IdpAuthResponse },
        400: { description: 'No email and no linked account' },
        ...errorResponses,
      },
    }),
    validate('json', AppleSignInBody),
    async (c) => {
      const body = c.req.valid('json');
      const payload = await verifyIdentityToken(body.identityToken, appleProvider(c.env));
      const { user, isNewUser } = await signInWithApple(c.var.db, payload, appleDisplayName(body.name));
      return sessionResponse(c, user, 200, { isNewUser });
    },
  );
