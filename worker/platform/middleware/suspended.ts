import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors';
import { jsonResponse, mergeResponse } from '../http/openapi';
import { type AccountSuspension, activeSuspension } from '../tokens/suspension';

type ResponseConfig = ReturnType<typeof jsonResponse>;

export const SUSPENDED_TEXT = 'Account suspended.';

/**
 * What a suspended rider may still do, by method and path: read their own account (it carries the suspension,
 * so the app can say why and until when) and sign out. Every other request an access check admits is refused.
 */
const OPEN_WHILE_SUSPENDED = new Set(['GET /api/users/me', 'POST /api/auth/logout']);

export const SuspendedBody = z
  .object({
    error: z.literal(SUSPENDED_TEXT),
    until: z.string().nullable().describe('when the suspension ends (ISO 8601), or null: until an admin lifts it'),
    reason: z.string().optional().describe("the admin's reason, for the rider to read"),
  })
  .openapi('AccountSuspended');

export const SUSPENDED_RESPONSE = jsonResponse(
  SuspendedBody,
  `JSON {error: "${SUSPENDED_TEXT}", until, reason}: the account is suspended (every route but GET /api/users/me and POST /api/auth/logout; docs/moderation.md)`,
);

/** A check's or a route's own 403 plus the suspended refusal. */
export const orSuspended = (own: ResponseConfig): ResponseConfig => mergeResponse(own, SUSPENDED_RESPONSE);

/**
 * Throws the 403 `Account suspended.` when the caller's account is suspended now and the request is not one it may
 * still make. The account is the one the check already read, so this costs no query.
 */
export function refuseWhileSuspended(
  account: { suspension?: AccountSuspension },
  request: { method: string; path: string },
  now: Date = new Date(),
): void {
  const suspension = activeSuspension(account, now);
  if (!suspension || OPEN_WHILE_SUSPENDED.has(`${request.method} ${request.path}`)) return;
  throw new ApiError(403, SUSPENDED_TEXT, {
    fields: {
      until: suspension.until?.toISOString() ?? null,
      ...(suspension.reason ? { reason: suspension.reason } : {}),
    },
  });
}
