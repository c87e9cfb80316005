import { z } from '@hono/zod-openapi';
import { lineText } from '../../platform/http/text';
import { LIMITS } from '../../platform/limits';
import { PUSH_PLATFORMS, PUSH_TRANSPORTS } from '../documents';
import { isKnownTimeZone } from '../preferences/quiet-hours';
import { isAuthSecret, isExpoPushToken, isNativeDeviceToken, isP256dhKey } from './format';
import type { TokenRegistration } from './service';
import { endpointFormProblem } from './web-endpoint';

const L = LIMITS.push;
const Label = z.string().trim().min(1).max(L.fieldMax);

/** A browser's PushSubscription as `subscription.toJSON()` gives it. */
export const WebSubscription = z
  .object({
    // The form here, beside the other fields' problems; the route checks the host against this deployment's
    // list and refuses http on this machine unless WEB_PUSH_LOCAL_ENDPOINTS=allow (./web-endpoint.ts).
    endpoint: z
      .string()
      .max(L.tokenMax)
      .superRefine((endpoint, ctx) => {
        const problem = endpointFormProblem(endpoint, true);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({
      p256dh: z.string().max(200).refine(isP256dhKey, 'must be the base64url P-256 public key (65 bytes)'),
      auth: z.string().max(100).refine(isAuthSecret, 'must be the base64url auth secret (16 bytes)'),
    }),
  })
  .openapi('WebPushSubscription');

/** The subscription JSON sent as the token string, parsed; undefined when the token is no JSON object. */
function subscriptionInToken(token: string | undefined) {
  if (!token?.startsWith('{')) return undefined;
  try {
    return WebSubscription.safeParse(JSON.parse(token));
  } catch {
    return undefined;
  }
}

const subscriptionFromToken = (token: string | undefined) => subscriptionInToken(token)?.data;

/** The interface spec's registration; for `webpush` the subscription JSON, as `subscription` or as the token string. */
export const RegisterTokenBody = z
  .object({
    token: z
      .string()
      .trim()
      .min(1)
      .max(L.tokenMax)
      .optional()
      .describe('the Expo push token (gateway), the APNs/FCM device token (native); optional for webpush'),
    subscription: WebSubscription.optional().describe('required when transport is webpush (or send it as `token`)'),
    platform: z.enum(PUSH_PLATFORMS),
    transport: z.enum(PUSH_TRANSPORTS),
    appVersion: Label.optional(),
    deviceModel: Label.optional(),
    timezone: z
      .string()
      .max(L.fieldMax)
      .refine(isKnownTimeZone, 'must be an IANA time zone such as Europe/Berlin')
      .optional(),
    locale: Label.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.transport === 'webpush' || body.platform === 'web') {
      if (body.platform !== 'web') problem('platform', 'must be web when transport is webpush');
      if (body.transport !== 'webpush') problem('transport', 'must be webpush when platform is web');
      const inToken = body.subscription ? undefined : subscriptionInToken(body.token);
      const subscription = body.subscription ?? inToken?.data;
      // A subscription sent as the token string names its fields as the `subscription` object would.
      for (const issue of inToken?.error?.issues ?? [])
        ctx.addIssue({ code: 'custom', path: ['subscription', ...issue.path.map(String)], message: issue.message });
      if (!subscription && !inToken?.error)
        problem('subscription', 'required when transport is webpush: {endpoint, keys: {p256dh, auth}}');
      else if (body.subscription && body.token && body.token !== body.subscription.endpoint)
        problem('token', 'must be left out (or equal subscription.endpoint) when a subscription is sent');
      return;
    }
    if (body.subscription) problem('subscription', 'only for transport webpush');
    if (!body.token) return problem('token', 'required');
    if (body.transport === 'gateway' && !isExpoPushToken(body.token))
      problem('token', 'must be an Expo push token: ExponentPushToken[…] or ExpoPushToken[…]');
    if (body.transport !== 'gateway' && !isNativeDeviceToken(body.token))
      problem('token', 'must be the APNs or FCM device token (letters, digits, : _ -)');
  })
  .transform((body): TokenRegistration => {
    const { subscription: given, token, ...device } = body;
    const subscription = body.transport === 'webpush' ? (given ?? subscriptionFromToken(token)) : undefined;
    return subscription
      ? { ...device, token: subscription.endpoint, endpoint: subscription.endpoint, keys: subscription.keys }
      : { ...device, token: token! };
  });

export const PushToken = z
  .object({
    token: z.string().describe('for webpush, the subscription endpoint'),
    platform: z.enum(PUSH_PLATFORMS),
    transport: z.enum(PUSH_TRANSPORTS),
    endpoint: z.string().optional(),
    appVersion: z.string().optional(),
    deviceModel: z.string().optional(),
    timezone: z.string().optional(),
    locale: z.string().optional(),
    lastSeenAt: z.string(),
    createdAt: z.string(),
  })
  .openapi('PushToken');

export const TokenParam = z.object({
  token: z
    .string()
    .min(1)
    .max(L.tokenMax)
    .openapi({ param: { name: 'token', in: 'path' }, example: 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]' }),
});

export const WebUnsubscribeQuery = z.object({
  platform: z.literal('web'),
  endpoint: lineText().min(1).max(L.tokenMax),
});

/** What `POST /api/push-tokens/remove` names: a device's token, or a browser's web push endpoint. */
export const RemoveTokenBody = z.union([
  z
    .object({ token: TokenParam.shape.token.openapi({ example: 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]' }) })
    .strict(),
  WebUnsubscribeQuery.strict(),
]);

export const RemovedToken = z.object({ deleted: z.literal(true), token: z.string() }).openapi('RemovedPushToken');
