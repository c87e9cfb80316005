import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors';
import { jsonResponse, mergeResponse } from '../http/openapi';
import { type AccountSuspension, activeSuspension } from '../tokens/suspension';

type ResponseConfig = ReturnType<typeof jsonResponse>;

export const SUSPENDED_TEXT = 'Account suspended.';

/**
 * What a suspended rider may still do, by method and path: read their own account (it carries the suspension,
 * so the app can say why and until when) and the moderators' decisions about them, sign out, and what the law
 * gives every rider whatever they did: delete their account, and ask for and fetch a copy of their data.
 * Every other request an access check admits is refused.
 */
const OPEN_WHILE_SUSPENDED = new Set([
  'GET /api/users/me',
  'GET /api/users/me/moderation',
  'POST /api/auth/logout',
  'POST /api/users/me/export',
  'GET /api/users/me/exports',
]);
const EXPORT_DOWNLOAD = /^GET \/api\/users\/me\/exports\/[0-9a-fA-F]{24}\/download$/;

const openWhileSuspended = (accountId: string, request: string) =>
  OPEN_WHILE_SUSPENDED.has(request) || EXPORT_DOWNLOAD.test(request) || request === `DELETE /api/users/${accountId}`;

export const SuspendedBody = z
  .object({
    error: z.literal(SUSPENDED_TEXT),
    until: z.string().nullable().describe('when the suspension ends (ISO 8601), or null: until an admin lifts it'),
    reason: z.string().optional().describe("the admin's reason, for the rider to read"),
  })
  .openapi('AccountSuspended');

export const SUSPENDED_RESPONSE = jsonResponse(
  SuspendedBody,
  `JSON {error: "${SUSPENDED_TEXT}", until, reason}: the account is suspended (every route but reading your own account and the decisions about you, signing out, deleting your account and your data export; docs/moderation.md)`,
);

/** A check's or a route's own 403 plus the suspended refusal. */
export const orSuspended = (own: ResponseConfig): ResponseConfig => mergeResponse(own, SUSPENDED_RESPONSE);

/**
 * The 403 `Account suspended.` when the caller's account is suspended at `now` and the request is not one it may
 * still make, else null. The account is the one the check already read, so this costs no query.
 */
export function suspendedRefusal(
  account: { _id?: unknown; suspension?: AccountSuspension },
  request: { method: string; path: string },
  now: Date = new Date(),
): ApiError | null {
  const suspension = activeSuspension(account, now);
  if (!suspension || openWhileSuspended(String(account._id), `${request.method} ${request.path}`)) return null;
  return new ApiError(403, SUSPENDED_TEXT, {
    fields: {
      until: suspension.until?.toISOString() ?? null,
      ...(suspension.reason ? { reason: suspension.reason } : {}),
    },
  });
}
