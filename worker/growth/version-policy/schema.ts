import { z } from '@hono/zod-openapi';
import { PageQuery } from '../../platform/http/pagination';
import { LIMITS } from '../../platform/limits';
import { isSemanticVersion, versionAtMost } from './evaluate';

const L = LIMITS.versionPolicy;

export const MobilePlatform = z.enum(['ios', 'android']);

export const SemanticVersion = z
  .string()
  .max(LIMITS.heartbeat.versionMax)
  .refine(isSemanticVersion, 'must be a semantic version such as 1.4.0 or 2.0.0-beta.1')
  .openapi({ example: '1.4.0' });

export const PlatformParam = z.object({
  platform: MobilePlatform.openapi({ param: { name: 'platform', in: 'path' } }),
});

export const PolicyQuery = z.object({
  platform: MobilePlatform,
  version: SemanticVersion.optional().describe("the client's own version: the answer then carries `evaluation`"),
  build: z.coerce
    .number()
    .int()
    .min(0)
    .max(LIMITS.heartbeat.buildMax)
    .optional()
    .describe('the client build number; echoed in `evaluation`, not compared (the policy names versions only)'),
});

/** The policy a client reads (the interface spec, Client installation and version policy). */
export const VersionPolicy = z
  .object({
    platform: MobilePlatform,
    latestVersion: z.string(),
    minimumSupportedVersion: z.string(),
    promptMode: z.enum(['optional', 'required']),
    title: z.string(),
    message: z.string(),
    storeUrl: z.string(),
    effectiveAt: z.string().describe('ISO 8601'),
    gracePeriodHours: z.number().int(),
    policyRevision: z.number().int().describe('increases with each admin change'),
  })
  .openapi('VersionPolicy');

export const Evaluation = z
  .object({
    version: z.string(),
    build: z.number().int().optional(),
    state: z.enum(['current', 'optional', 'required']),
    requiredFrom: z
      .string()
      .describe('effectiveAt plus gracePeriodHours: when a below-minimum version becomes required'),
  })
  .openapi('VersionEvaluation');

export const PolicyAnswer = VersionPolicy.extend({ evaluation: Evaluation.optional() });

export const SignedPolicyAnswer = z
  .object({
    policy: VersionPolicy,
    evaluation: Evaluation.optional(),
    signature: z
      .string()
      .describe('compact JWS (ES256) whose payload is `{policy, iat, exp}`; verify with the key set at jwks.json'),
    expiresAt: z.string().describe('the JWS `exp`: trust a cached policy no longer than this'),
  })
  .openapi('SignedVersionPolicy');

export const PublicJwks = z
  .object({
    keys: z.array(
      z
        .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string(), kid: z.string() })
        .loose(),
    ),
  })
  .openapi('PolicyJwks');

export const PolicyUpdate = z
  .object({
    latestVersion: SemanticVersion,
    minimumSupportedVersion: SemanticVersion,
    promptMode: z.enum(['optional', 'required']),
    title: z.string().trim().min(1).max(L.titleMax),
    message: z.string().trim().min(1).max(L.messageMax),
    storeUrl: z.url({ protocol: /^https$/, message: 'must be an https URL' }).max(LIMITS.urlMax),
    effectiveAt: z.iso.datetime({ offset: true }).transform((text) => new Date(text)),
    gracePeriodHours: z.number().int().min(0).max(L.gracePeriodHoursMax),
    reason: z.string().trim().min(1, 'must say why the policy changes').max(L.reasonMax),
  })
  .strict()
  .refine((body) => versionAtMost(body.minimumSupportedVersion, body.latestVersion), {
    message: 'must be at or below latestVersion',
    path: ['minimumSupportedVersion'],
  });

export const HistoryQuery = z.object({
  limit: PageQuery.shape.limit,
  cursor: z
    .string()
    .regex(/^r\d{1,9}$/, 'is not a cursor this API returned')
    .optional(),
});

export const PolicyChange = z
  .object({
    _id: z.string(),
    platform: MobilePlatform,
    policyRevision: z.number().int(),
    reason: z.string(),
    actorId: z.string().nullable().describe('the admin; null once their account is deleted'),
    changedAt: z.string(),
    policy: VersionPolicy.omit({ platform: true, policyRevision: true }),
  })
  .openapi('VersionPolicyChange');

export const PolicyHistory = z.object({ items: z.array(PolicyChange), nextCursor: z.string().nullable() });
