import { z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { Store } from '../../platform/db/store';
import { ApiError } from '../../platform/http/errors';
import { createRouter, defineRoute, errorResponse, jsonResponse } from '../../platform/http/openapi';
import { LIMITS } from '../../platform/limits';
import type { MobilePlatform } from '../documents';
import { evaluateVersion } from './evaluate';
import { PolicyAnswer, PolicyQuery, PublicJwks, SignedPolicyAnswer } from './schema';
import { findPolicy } from './service';
import { publicKeySet, signPolicy } from './signing';
import { evaluationView, policyView } from './views';

const TAGS = ['version policy'];
const CACHEABLE = { 'Cache-Control': `public, max-age=${LIMITS.versionPolicy.cacheSeconds}` };
const CACHE_HEADER = z.object({ 'Cache-Control': z.string().describe('shared caches may keep the answer this long') });
const noPolicy = errorResponse('No policy has been published for this platform yet; keep the last valid one');

const getPolicy = defineRoute({
  method: 'get',
  path: '/',
  tags: TAGS,
  summary: "A mobile platform's version policy; with `version`, the state of that version",
  description:
    'No auth. Cacheable. Clients keep the last valid policy; a failed fetch never turns an optional update into a required one (the interface spec, Errors). See docs/version-policy.md.',
  request: { query: PolicyQuery },
  responses: { 200: jsonResponse(PolicyAnswer, 'The policy', CACHE_HEADER), 404: noPolicy },
});

const getSignedPolicy = defineRoute({
  method: 'get',
  path: '/signed',
  tags: TAGS,
  summary: 'The same policy, signed (ES256 JWS with an expiry) for caching and emergency blocks',
  description:
    'Verify `signature` with the key set at GET /api/mobile/version-policy/jwks.json; trust the cached policy until `expiresAt`. A server without POLICY_SIGNING_KEY answers 500 naming it.',
  request: { query: PolicyQuery },
  responses: { 200: jsonResponse(SignedPolicyAnswer, 'The signed policy', CACHE_HEADER), 404: noPolicy },
});

const getJwks = defineRoute({
  method: 'get',
  path: '/jwks.json',
  tags: TAGS,
  summary: 'The public key set that verifies signed version policies (JWKS, RFC 7517)',
  responses: { 200: jsonResponse(PublicJwks, 'The key set', CACHE_HEADER) },
});

async function answerFor(store: Store, query: { platform: MobilePlatform; version?: string; build?: number }) {
  const policy = await findPolicy(store, query.platform);
  if (!policy) throw new ApiError(404, `No version policy has been published for ${query.platform} yet.`);
  const evaluation =
    query.version === undefined
      ? undefined
      : evaluationView(evaluateVersion(policy, query.version, new Date()), query.version, query.build);
  return { policy: policyView(policy), ...(evaluation ? { evaluation } : {}) };
}

/** The public version-policy routes, mounted under /api/mobile/version-policy. */
export const versionPolicyRoutes = createRouter<AppEnv>()
  .openapi(getPolicy, async (c) => {
    const { policy, evaluation } = await answerFor(c.var.db, c.req.valid('query'));
    return c.json({ ...policy, ...(evaluation ? { evaluation } : {}) }, 200, CACHEABLE);
  })
  .openapi(getSignedPolicy, async (c) => {
    const answer = await answerFor(c.var.db, c.req.valid('query'));
    const { signature, expiresAt } = await signPolicy(c.env, answer.policy, new Date());
    return c.json({ ...answer, signature, expiresAt: expiresAt.toISOString() }, 200, CACHEABLE);
  })
  .openapi(getJwks, async (c) => c.json(await publicKeySet(c.env), 200, CACHEABLE));
