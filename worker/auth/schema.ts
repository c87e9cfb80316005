import { z } from 'zod';
import { LIMITS } from '../limits';

const Jwt = z.string().min(1, 'is required').max(8192);

export const GoogleSignInBody = z.object({ idToken: Jwt });

/** Apple sends the name only on first authorization, as a string or its name parts. */
export const AppleName = z.union([
  z.string().trim().max(LIMITS.name.max),
  z.object({
    givenName: z.string().max(LIMITS.name.max).nullish(),
    familyName: z.string().max(LIMITS.name.max).nullish(),
    firstName: z.string().max(LIMITS.name.max).nullish(),
    lastName: z.string().max(LIMITS.name.max).nullish(),
  }),
]);

export const AppleSignInBody = z.object({ identityToken: Jwt, name: AppleName.nullish() });

export function appleDisplayName(name: z.infer<typeof AppleName> | null | undefined): string | undefined {
  if (!name) return undefined;
  const text =
    typeof name === 'string'
      ? name
      : [name.givenName ?? name.firstName, name.familyName ?? name.lastName].filter(Boolean).join(' ');
  return text.trim() || undefined;
}
