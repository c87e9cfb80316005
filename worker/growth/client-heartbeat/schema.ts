import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';
import { isSemanticVersion } from '../version-policy/evaluate';

const L = LIMITS.heartbeat;

const knownTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const Label = z.string().trim().min(1).max(L.fieldMax);
const ClientTime = z.iso.datetime({ offset: true }).transform((text) => new Date(text));

/** The interface spec's heartbeat request: the installation as the client sees it now; unknown fields are ignored, so a newer app's heartbeat reaches an older server. */
export const HeartbeatBody = z
  .object({
    installationId: z
      .string()
      .min(L.installationIdMin)
      .max(L.installationIdMax)
      .regex(/^[A-Za-z0-9._:-]+$/, 'must be an opaque id of letters, digits and . _ : -')
      .describe('installation-scoped id the app generates once (a UUID is ideal)'),
    platform: z.enum(['ios', 'android', 'web']),
    appVersion: z
      .string()
      .max(L.versionMax)
      .refine(isSemanticVersion, 'must be a semantic version such as 1.4.0')
      .openapi({ example: '1.4.0' }),
    buildNumber: z.number().int().min(0).max(L.buildMax),
    osFamily: Label.describe('e.g. "iOS 18.2", "Android 15"'),
    deviceFamily: Label.describe('e.g. "iPhone", "Pixel", "tablet"'),
    locale: z
      .string()
      .max(35)
      .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, 'must be a BCP 47 language tag such as en-US'),
    timezone: z.string().max(L.fieldMax).refine(knownTimeZone, 'must be an IANA time zone such as Europe/Berlin'),
    notificationCapability: z.enum(['granted', 'denied', 'provisional', 'not-determined', 'unsupported']),
    firstSeenAt: ClientTime.optional().describe(
      'when the app first ran; the earliest reported (not in the future) is kept',
    ),
    lastSeenAt: ClientTime.optional().describe('accepted for compatibility; the server records its own time'),
  })
  .openapi({
    description: 'Fields the server does not know are ignored (not stored), so a newer app works with an older server.',
  });

export const HeartbeatAnswer = z
  .object({
    installationId: z.string(),
    platform: z.enum(['ios', 'android', 'web']),
    appVersion: z.string(),
    buildNumber: z.number().int(),
    linked: z.boolean().describe('whether a valid token linked the installation to the account'),
    versionChanged: z.boolean().describe('whether this heartbeat recorded a new (version, build)'),
    firstSeenAt: z.string(),
    lastSeenAt: z.string(),
  })
  .openapi('HeartbeatAnswer');
