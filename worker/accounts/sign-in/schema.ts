import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';
import { Email, Name, Password, User } from '../users/schema';
import { IdToken } from './identity-proof';

export const RegisterBody = z.object({ name: Name, email: Email, password: Password });
export const SignInBody = z.object({ email: Email, password: z.string().min(1).max(LIMITS.password.max) });

export const GoogleSignInBody = z.object({ idToken: IdToken });

/** Apple sends the name only on first authorization, as a string or its name parts. */
const AppleName = z.union([
  z.string().trim().max(LIMITS.name.max),
  z.object({
    givenName: z.string().max(LIMITS.name.max).nullish(),
    familyName: z.string().max(LIMITS.name.max).nullish(),
    firstName: z.string().max(LIMITS.name.max).nullish(),
    lastName: z.string().max(LIMITS.name.max).nullish(),
  }),
]);

export const AppleSignInBody = z.object({ identityToken: IdToken, name: AppleName.nullish() });

export function appleDisplayName(name: z.infer<typeof AppleName> | null | undefined): string | undefined {
  if (!name) return undefined;
  const text =
    typeof name === 'string'
      ? name
      : [name.givenName ?? name.firstName, name.familyName ?? name.lastName].filter(Boolean).join(' ');
  return text.trim() || undefined;
}

/** A successful sign-in or registration; the token is also in the `x-auth-token` header. */
export const Session = z
  .object({
    token: z.string(),
    refreshToken: z.string().optional().describe('opt-in sessions only (x-session-mode: refresh)'),
    expiresIn: z.number().int().optional().describe("opt-in sessions only: the token's lifetime in seconds"),
    user: User,
  })
  .openapi('Session');
export const IdpSession = Session.extend({ isNewUser: z.boolean() }).openapi('IdpSession');
