import { z } from 'zod';
import { LIMITS } from '../limits';

/** Emails are compared and stored trimmed and lower-cased. */
export const Email = z
  .string()
  .trim()
  .max(LIMITS.email.max)
  .pipe(z.email({ message: 'must be a valid email address' }))
  .transform((email) => email.toLowerCase());

export const Password = z
  .string()
  .min(LIMITS.password.min, `must be at least ${LIMITS.password.min} characters`)
  .max(LIMITS.password.max, `must be at most ${LIMITS.password.max} characters`);

export const Name = z.string().trim().min(LIMITS.name.min, 'must not be empty').max(LIMITS.name.max);
export const ImageUri = z.url({ message: 'must be a URL' }).max(2048);

export const RegisterBody = z.object({ name: Name, email: Email, password: Password });
export const SignInBody = z.object({ email: Email, password: z.string().min(1).max(LIMITS.password.max) });
export const UpdateMeBody = z.object({ name: Name.optional(), imageUri: ImageUri.optional() }).strict();
export const UpdateUserBody = z
  .object({ name: Name.optional(), imageUri: ImageUri.optional(), email: Email.optional() })
  .strict();

const Subscription = z.object({ plan: z.string(), status: z.string(), renewsAt: z.string().nullable().optional() });

/** The account as its owner (or an admin) sees it: never the password hash. */
export const User = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  imageUri: z.string().optional(),
  role: z.literal('admin').nullable(),
  subscription: Subscription.optional(),
  isBot: z.boolean().optional(),
  analyticsExcluded: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** Another rider as anyone sees them (decisions.md). */
export const PublicUser = z.object({ _id: z.string(), name: z.string(), imageUri: z.string().optional() });

export const AuthResponse = z.object({ token: z.string(), user: User });
export const IdpAuthResponse = AuthResponse.extend({ isNewUser: z.boolean() });
