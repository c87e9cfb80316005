import { z } from '@hono/zod-openapi';
import type { JWTPayload } from 'jose';
import type { Env } from '../../platform/env';
import { ApiError } from '../../platform/http/errors';
import { LIMITS } from '../../platform/limits';
import type { UserDoc } from '../documents';
import { emailVerified, stringClaim } from './claims';
import { verifyIdentityToken } from './identity-token';
import { appleProvider, googleProvider } from './providers';

/** An identity provider's ID token as a client sends it. */
export const IdToken = z.string().min(1, 'is required').max(LIMITS.idTokenMax);

const MAX_AGE_MINUTES = LIMITS.identityProofMaxAgeSeconds / 60;

/** What an account that signs in with Google or Apple only sends to prove, in the request itself, that it is its owner. */
export const IdentityProof = z
  .object({
    provider: z.enum(['google', 'apple']),
    idToken: IdToken.describe(
      `an ID token from signing in with that provider again just now (Google's \`idToken\`, Apple's \`identityToken\`), issued within the last ${MAX_AGE_MINUTES} minutes, for this account`,
    ),
  })
  .openapi('IdentityProof');
export type IdentityProof = z.infer<typeof IdentityProof>;

const PROVIDERS = { google: googleProvider, apple: appleProvider };
const FIELD = 'identityProof';

const invalidProof = (message: string) =>
  new ApiError(400, `identityProof: ${message}`, { details: [{ field: FIELD, message }] });

/** Whether verified claims name this account as sign-in finds it: by its linked subject, or by its verified address. */
function namesAccount(
  provider: IdentityProof['provider'],
  payload: JWTPayload,
  account: Pick<UserDoc, 'email' | 'googleUserId' | 'appleUserId'>,
): boolean {
  const linked = provider === 'google' ? account.googleUserId : account.appleUserId;
  if (linked !== undefined && payload.sub === linked) return true;
  return emailVerified(payload) && stringClaim(payload, 'email')?.toLowerCase() === account.email;
}

/**
 * Passes only when `proof` is a Google or Apple ID token for this account, issued within the last
 * LIMITS.identityProofMaxAgeSeconds: what an account without a password proves its owner with before `action`
 * (a first password, a new address). A session token is no proof, however fresh: a thief holding one can get another.
 * Missing, stale, unverifiable or another account's: 400 naming identityProof; the provider's keys unreachable: 502.
 */
export async function checkIdentityProof(
  env: Env,
  account: Pick<UserDoc, 'email' | 'googleUserId' | 'appleUserId'>,
  proof: IdentityProof | undefined,
  action: string,
): Promise<void> {
  if (!proof) {
    throw new ApiError(
      400,
      `identityProof is required to ${action}: this account signs in with Google or Apple only, so sign in with it again and send the fresh ID token as identityProof {provider, idToken}.`,
      { details: [{ field: FIELD, message: 'is required: a fresh Google or Apple ID token for this account' }] },
    );
  }
  const provider = PROVIDERS[proof.provider](env);
  const outcome = await verifyIdentityToken(proof.idToken, provider);
  if (!outcome.ok) {
    if (outcome.problem === 'keys-unavailable') {
      throw new ApiError(502, `Could not fetch ${provider.label}'s signing keys to verify identityProof.`);
    }
    throw invalidProof(`invalid ${provider.label} token: ${outcome.reason}.`);
  }
  const ageSeconds = Date.now() / 1000 - (outcome.payload.iat ?? 0);
  if (ageSeconds > LIMITS.identityProofMaxAgeSeconds) {
    throw invalidProof(
      `the ${provider.label} token was issued ${Math.floor(ageSeconds / 60)} minutes ago; sign in with ${provider.label} again for one issued within the last ${MAX_AGE_MINUTES} minutes.`,
    );
  }
  if (!namesAccount(proof.provider, outcome.payload, account)) {
    throw invalidProof(`the ${provider.label} token is for another account.`);
  }
}

/** identityProof sent for an account with a password, whose current password is its proof. */
export const proofNotTaken = () =>
  new ApiError(400, 'identityProof is only taken for an account without a password: send currentPassword.', {
    details: [{ field: FIELD, message: 'must be absent: the account has a password' }],
  });
