import type { JWTPayload } from 'jose';

// Reading an identity provider's verified claims, as sign-in and a proof of identity both do.

/** A non-blank string claim, trimmed; undefined otherwise. */
export const stringClaim = (payload: JWTPayload, name: string) =>
  typeof payload[name] === 'string' && (payload[name] as string).trim() ? (payload[name] as string).trim() : undefined;

// Providers have sent email_verified both as a boolean and as the string "true".
export const emailVerified = (payload: JWTPayload) =>
  payload.email_verified === true || payload.email_verified === 'true';
