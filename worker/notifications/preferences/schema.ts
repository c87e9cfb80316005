import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';
import { OS_PERMISSION_STATES } from '../documents';
import { isKnownTimeZone } from './quiet-hours';

const Channel = z.object({ push: z.boolean(), inApp: z.boolean(), email: z.boolean() });
const Clock = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:mm from 00:00 to 23:59')
  .openapi({ example: '21:00' });
const Zone = z
  .string()
  .max(LIMITS.push.fieldMax)
  .refine(isKnownTimeZone, 'must be an IANA time zone such as Europe/Berlin');
const QuietHoursShape = z.object({ start: Clock, end: Clock, timezone: Zone });
const Permission = z.enum(OS_PERMISSION_STATES);
const OsPermissionShape = z.object({ ios: Permission, android: Permission, web: Permission });
/** A time the client reports (it may report late, so any past time); a time ahead of our clock is refused. */
const ReportedTime = z.iso
  .datetime({ offset: true })
  .refine((at) => Date.parse(at) <= Date.now() + LIMITS.push.softAskClockSkewMs, 'must not be in the future')
  .transform((at) => new Date(at));
const SoftAskPatch = z
  .object({ shownAt: ReportedTime, declinedAt: ReportedTime, acceptedAt: ReportedTime })
  .partial()
  .strict();
const SoftAskView = z.object({ shownAt: z.string(), declinedAt: z.string(), acceptedAt: z.string() }).partial();

/** Any subset of the groups, each any subset of its fields; unknown fields are refused by name. */
export const PreferencesPatch = z
  .object({
    messages: Channel.partial().strict(),
    reminders: Channel.partial().strict(),
    events: Channel.partial().strict(),
    quietHours: QuietHoursShape.partial()
      .strict()
      .describe('start equal to end means no quiet hours; start after end spans midnight'),
    osPermission: OsPermissionShape.partial().strict(),
    softAsk: z
      .object({ ios: SoftAskPatch, android: SoftAskPatch, web: SoftAskPatch })
      .partial()
      .strict()
      .describe(
        'when the in-app soft ask was shown, declined or accepted on each platform (ISO times, not in the future)',
      ),
  })
  .partial()
  .strict()
  .openapi('NotificationPreferencesPatch');

export const Preferences = z
  .object({
    messages: Channel,
    reminders: Channel,
    events: Channel.describe(
      'changes to events you saved, hold a relationship to or subscribe to, and subscription digests (docs/event-notifications.md); defaults push on, in-app on, email off',
    ),
    quietHours: QuietHoursShape.extend({ timezone: z.string() }).describe(
      "local wall-clock times in timezone (the user's own: set here, else their newest device's)",
    ),
    osPermission: OsPermissionShape,
    softAsk: z.object({ ios: SoftAskView, android: SoftAskView, web: SoftAskView }),
    shouldAsk: z
      .object({ ios: z.boolean(), android: z.boolean(), web: z.boolean() })
      .describe(
        `show the in-app soft ask: never accepted, OS permission neither granted nor denied, never declined or declined at least ${LIMITS.push.softAskRepeatDays} days ago`,
      ),
    updatedAt: z.string().nullable().describe('null until the first PATCH'),
  })
  .openapi('NotificationPreferences');
