import { HTTPException } from 'hono/http-exception';

/** One entry of a validation failure: which field, and what is wrong with it. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * An error whose message is safe to show to the client. Everything the API answers
 * with a JSON `{error, details?}` body goes through this class.
 */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The Live access-check failures are plain text, exactly as existing clients read them.
 * HTTPException carries a ready Response, as Hono's own middleware do.
 */
export function plainTextError(status: 400 | 401 | 403, text: string): HTTPException {
  return new HTTPException(status, {
    res: new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
  });
}

export const notFound = (what: string) => new ApiError(404, `${what} not found.`);
export const forbidden = (message = 'You do not have access to this resource.') => new ApiError(403, message);
