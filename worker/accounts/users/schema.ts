import { z } from '@hono/zod-openapi';
import { IdString } from '../../platform/http/ids';
import { PageQuery } from '../../platform/http/pagination';
import { queryText } from '../../platform/http/text';
import { WebUrl } from '../../platform/http/web-url';
import { LIMITS } from '../../platform/limits';
import { IdentityProof } from '../sign-in/identity-proof';

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

export const UpdateMeBody = z
  .object({
    name: Name.optional(),
    imageUri: WebUrl.optional(),
    imageMediaId: IdString.optional().describe(
      'a photo you uploaded (POST /api/media): becomes your picture, and imageUri its URL',
    ),
  })
  .strict()
  .refine((body) => !(body.imageUri && body.imageMediaId), {
    message: 'send imageUri or imageMediaId, not both',
    path: ['imageMediaId'],
  });
export const UpdateUserBody = z
  .object({
    name: Name.optional(),
    imageUri: WebUrl.optional(),
    email: Email.optional(),
    currentPassword: z
      .string()
      .max(LIMITS.password.max)
      .optional()
      .describe(
        "the account's current password: required with a new email when the account has one, unless an admin changes another rider's address",
      ),
    identityProof: IdentityProof.optional().describe(
      "required with a new email when the account has no password (it signs in with Google or Apple only), unless an admin changes another rider's address",
    ),
  })
  .strict();

export const AdminUserQuery = PageQuery.extend({
  q: queryText().optional().describe('matches name or email, case-insensitive'),
});

export const AdminUserUpdate = z
  .object({
    role: z.union([z.literal('admin'), z.null()]).optional(),
    isBot: z.boolean().optional(),
    analyticsExcluded: z.boolean().optional(),
  })
  .strict();

/** A suspension while it lasts, as the rider reads it on their account (docs/moderation.md). */
export const SuspensionView = z
  .object({
    until: z.string().nullable().describe('when it ends (ISO 8601), or null: until an admin lifts it'),
    reason: z.string().describe("the admin's reason"),
    at: z.string().optional().describe('when it was set'),
  })
  .openapi('Suspension');

const Subscription = z.object({ plan: z.string(), status: z.string(), renewsAt: z.string().optional() });

/** The account as its owner (or an admin) sees it: never the password hash. */
export const User = z
  .object({
    _id: z.string(),
    name: z.string(),
    email: z.string(),
    emailVerified: z
      .boolean()
      .describe(
        "whether the address is proved to be the rider's (it came from Google or Apple); false after registration with a password or a change of address (docs/accounts.md)",
      ),
    imageUri: z.string().optional(),
    role: z.union([z.literal('admin'), z.null()]).describe('"admin", or null for a rider'),
    subscription: Subscription.optional(),
    isBot: z.boolean().optional(),
    analyticsExcluded: z.boolean().optional(),
    suspension: SuspensionView.optional().describe(
      'present while the account is suspended: every request but this account read and signing out is refused with 403',
    ),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('User');

export const DeletedAccount = z.object({ deleted: z.literal(true), userId: z.string() });

/** Another rider as anyone sees them (product decisions): never their email. */
export const PublicUser = z
  .object({ _id: z.string(), name: z.string(), imageUri: z.string().optional() })
  .openapi('PublicUser');
