import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** One entry of a validation failure: which field, and what is wrong with it. */
export interface ErrorDetail {
  field: string;
  message: string;
}

export interface ApiErrorOptions {
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  /** The Live access checks answer in plain text, exactly as existing clients read them. */
  plainText?: boolean;
  /** Fields the JSON body carries beside `error` (a 402's balance and the credit needed, a suspension's end). */
  fields?: Record<string, string | number | boolean | null>;
}

/**
 * An error whose message is safe to show to the client. It is an HTTPException, so one
 * `instanceof` check covers ours and Hono's; worker/platform/http/on-error.ts alone turns either
 * into a response: `{error, details?}` JSON, or the bare text for `plainText`.
 */
export class ApiError extends HTTPException {
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  readonly plainText: boolean;
  readonly fields?: Record<string, string | number | boolean | null>;

  constructor(status: ContentfulStatusCode, message: string, options: ApiErrorOptions = {}) {
    super(status, { message });
    this.name = 'ApiError';
    this.details = options.details;
    this.headers = options.headers;
    this.plainText = options.plainText ?? false;
    this.fields = options.fields;
  }
}

/** A Live access-check refusal: plain-text body, exact wording from worker/platform/tokens/access-text.ts. */
export const plainTextError = (status: 400 | 401 | 403, text: string) =>
  new ApiError(status, text, { plainText: true });
