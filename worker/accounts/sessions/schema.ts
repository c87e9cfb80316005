import { z } from '@hono/zod-openapi';
import { pageOf } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { IdentityProof } from '../sign-in/identity-proof';
import { Password, User } from '../users/schema';

export const RefreshBody = z.object({
  refreshToken: z.string().min(1, 'is required').max(LIMITS.sessions.refreshTokenMax),
});

/** An opt-in session's tokens: `expiresIn` is the access token's lifetime in seconds. */
export const RefreshedSession = z
  .object({ token: z.string(), refreshToken: z.string(), expiresIn: z.number().int(), user: User })
  .openapi('RefreshedSession');

export const LogoutBody = z.object({
  all: z.boolean().optional().describe('true: every session of the account, not just this one'),
});

export const Revoked = z.object({ revoked: z.number().int().describe('sessions revoked by this request') });

export const SessionItem = z
  .object({
    _id: z.string(),
    device: z.string().describe("the sign-in's user-agent"),
    createdAt: z.string(),
    lastUsedAt: z.string(),
    expiresAt: z.string(),
    current: z.boolean().describe('the session of the access token making this request'),
  })
  .openapi('SessionItem');
export const SessionPage = pageOf(SessionItem);

export const PasswordChangeBody = z.object({
  currentPassword: z
    .string()
    .min(1)
    .max(LIMITS.password.max)
    .optional()
    .describe('required when the account has a password; absent to set the first one'),
  identityProof: IdentityProof.optional().describe(
    'required to set the first password of an account that signs in with Google or Apple only; absent otherwise',
  ),
  newPassword: Password,
});

/** The header a response carrying a new token repeats it in, as sign-in does for Live clients. */
export const TOKEN_HEADER = z.object({ 'x-auth-token': z.string().describe('the same token as the body') });

export const PasswordChanged = z.object({
  changed: z.literal(true),
  revokedSessions: z.number().int().describe('other sessions revoked'),
  token: z
    .string()
    .describe(
      "the caller's new token (also in x-auth-token): every token signed before the change is refused from now on",
    ),
  expiresIn: z
    .number()
    .int()
    .optional()
    .describe("an opt-in caller's new access token lifetime, seconds; its session goes on"),
});

export const LegacyUsageQuery = z.object({
  days: z.coerce.number().int().min(1).max(LIMITS.sessions.legacyUsageDaysMax).default(30),
});

export const LegacyUsage = z.object({
  days: z.array(z.object({ date: z.string().describe('UTC day, YYYY-MM-DD'), requests: z.number().int() })),
});
