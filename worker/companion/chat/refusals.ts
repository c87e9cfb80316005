import { ApiError } from '../../platform/http/errors';
import { LIMITS } from '../../platform/limits';
import type { ProviderError } from './providers/types';

/** A model failure as the chat routes answer it; the rider's message is already stored. */
export function providerRefusal(err: ProviderError): ApiError {
  if (err.kind === 'unavailable') {
    return new ApiError(503, 'The companion is unavailable right now; your message is kept, try again shortly.', {
      headers: { 'Retry-After': String(LIMITS.companion.providerRetryAfterSeconds) },
    });
  }
  return new ApiError(502, 'The companion could not answer; your message is kept, try again.');
}

export const tooManyMessages = (retryAfterSeconds: number) =>
  new ApiError(429, 'Too many companion messages; try again after Retry-After seconds.', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });

/** Neither the day's allowance nor the rider's credit covers the reply: 402 with what is missing. */
export const paymentRequired = (balance: number, needed: number) =>
  new ApiError(402, 'Your AI allowance for today is used up and your credit does not cover this reply.', {
    fields: { balance, needed },
  });
