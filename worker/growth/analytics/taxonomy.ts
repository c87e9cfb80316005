import { z } from '@hono/zod-openapi';
import {
  BILLING_INTERVALS,
  CALENDARS,
  COMPANION_STAGES,
  COMPANION_SURFACES,
  count,
  durationMs,
  entryPoint,
  experimentKey,
  identifier,
  MAP_APPS,
  NOTIFICATION_CATEGORIES,
  objectId,
  PAYWALL_TRIGGERS,
  PLANS,
  SHARE_CHANNELS,
  SIGN_UP_METHODS,
  semver,
  TRICK_STATUSES,
} from './property-types';

/** The value domains of meaningful actions (the interface spec, "Analytics event names"). */
export const VALUE_DOMAINS = ['progression', 'discovery', 'coaching', 'community'] as const;
export type ValueDomain = (typeof VALUE_DOMAINS)[number];

/**
 * Which copy of an event the metrics count. `server`: the API performs the action and records it
 * itself (worker/growth/analytics/server-events.ts), so a client's event of that name is stored but never
 * counted; `client`: only the client sees the action (docs/analytics.md, "Double counting").
 */
export type CountedFrom = 'server' | 'client';

interface EventDefinition {
  /** Set on meaningful actions (they count toward weekly progressing riders); null otherwise. */
  domain: ValueDomain | null;
  countedFrom: CountedFrom;
  /** The properties the event may carry; any other key is an unknown property. */
  properties: z.ZodObject;
  /** A condition on the stored event for it to count as a meaningful action, beyond its name. */
  countedWhen?: Record<string, unknown>;
}

const props = (shape: z.ZodRawShape) => z.object(shape).strict();
const none = props({});
const event = <C extends CountedFrom, P extends z.ZodObject, D extends ValueDomain | null = null>(
  countedFrom: C,
  properties: P,
  domain: D = null as D,
  countedWhen?: Record<string, unknown>,
) => ({ domain, countedFrom, properties, ...(countedWhen ? { countedWhen } : {}) });

const trickProps = props({ trickId: objectId, trickListId: objectId, trickipediaId: objectId.optional() });
const aiCommon = {
  surface: z.enum(COMPANION_SURFACES),
  provider: identifier,
  model: identifier,
  onStage: z.boolean().optional(),
};
const notificationProps = props({
  category: z.enum(NOTIFICATION_CATEGORIES),
  delivery: z.enum(['push', 'local', 'web']).optional(),
});
const updatePromptProps = props({
  promptMode: z.enum(['optional', 'required']),
  policyRevision: count,
  latestVersion: semver.optional(),
});
const subscriptionProps = props({ plan: z.enum(PLANS), interval: z.enum(BILLING_INTERVALS).optional() });

/** Every analytics event name (the interface spec: names must match exactly) with its rules. */
export const ANALYTICS_EVENTS = {
  // Lifecycle
  app_installed: event('client', none),
  app_opened: event('client', props({ coldStart: z.boolean().optional(), entryPoint: entryPoint.optional() })),
  signup_completed: event('server', props({ method: z.enum(SIGN_UP_METHODS) })),
  onboarding_started: event('client', none),
  onboarding_completed: event('client', props({ durationMs: durationMs.optional(), stepsCompleted: count.optional() })),
  session_ended: event('client', props({ durationMs: durationMs.optional() })),
  // Progression
  trick_viewed: event(
    'client',
    props({ trickId: objectId.optional(), trickipediaId: objectId.optional(), entryPoint: entryPoint.optional() }),
  ),
  trick_added: event('server', trickProps, 'progression'),
  trick_attempt_logged: event(
    'server',
    props({ trickId: objectId, trickListId: objectId, attempts: count.optional() }),
    'progression',
  ),
  trick_landed: event('server', trickProps, 'progression'),
  progression_status_changed: event(
    'client',
    props({ trickId: objectId, from: z.enum(TRICK_STATUSES), to: z.enum(TRICK_STATUSES) }),
  ),
  // Discovery
  spot_viewed: event('client', props({ spotId: objectId, entryPoint: entryPoint.optional() })),
  spot_saved: event('server', props({ spotId: objectId, spotListId: objectId }), 'discovery'),
  spot_directions_opened: event(
    'client',
    props({ spotId: objectId, mapApp: z.enum(MAP_APPS).optional() }),
    'discovery',
  ),
  event_viewed: event('client', props({ eventId: objectId, entryPoint: entryPoint.optional() })),
  event_saved: event('server', props({ eventId: objectId }), 'discovery'),
  event_calendar_added: event(
    'client',
    props({ eventId: objectId, calendar: z.enum(CALENDARS).optional() }),
    'discovery',
  ),
  event_shared: event('client', props({ eventId: objectId, channel: z.enum(SHARE_CHANNELS).optional() })),
  // AI: model, latency, token and character counts, cost; never prompt text.
  ai_session_started: event('server', props(aiCommon)),
  ai_response_completed: event(
    'server',
    props({
      ...aiCommon,
      latencyMs: durationMs.optional(),
      promptTokens: count.optional(),
      completionTokens: count.optional(),
      inputChars: count.optional(),
      outputChars: count.optional(),
      costMicros: count.optional(),
      modelCalls: count.optional(),
      toolCalls: count.optional(),
      stage: z.enum(COMPANION_STAGES).optional(),
      demo: z.boolean().optional(),
      substantive: z.boolean().optional(),
    }),
    'coaching',
    // Only a substantive turn is a meaningful action (interface spec); greetings are stored, not counted.
    { 'properties.substantive': true },
  ),
  ai_session_completed: event(
    'client',
    props({ surface: z.enum(COMPANION_SURFACES), turns: count.optional(), durationMs: durationMs.optional() }),
  ),
  // Recorded by the chat routes when a rider first runs out of the day's allowance (worker/billing/ai-credits/paid-call.ts).
  ai_allowance_exhausted: event('server', props({ surface: z.enum(COMPANION_SURFACES), plan: z.enum(PLANS) })),
  // Community
  post_created: event('server', props({ postId: objectId, hasMedia: z.boolean().optional() }), 'community'),
  comment_created: event('server', props({ postId: objectId, commentId: objectId }), 'community'),
  // Recorded by the follow that stores the row or forms the pair (worker/social/follows/service.ts).
  rider_followed: event('server', props({ riderId: objectId }), 'community'),
  homie_connected: event('server', props({ riderId: objectId }), 'community'),
  // Notifications
  notification_permission_result: event(
    'client',
    props({ result: z.enum(['granted', 'denied', 'provisional']), prompted: z.boolean().optional() }),
  ),
  notification_received: event('client', notificationProps),
  notification_opened: event('client', notificationProps),
  // Versioning
  version_heartbeat: event('client', none),
  update_prompt_seen: event('client', updatePromptProps),
  update_prompt_dismissed: event('client', updatePromptProps),
  update_store_opened: event('client', updatePromptProps),
  update_completed: event('client', props({ fromVersion: semver, toVersion: semver })),
  // Revenue: payment receipts and webhooks stay the source of truth; these never grant entitlements.
  paywall_viewed: event('client', props({ trigger: z.enum(PAYWALL_TRIGGERS) })),
  checkout_started: event('client', subscriptionProps),
  trial_started: event('client', subscriptionProps),
  subscription_started: event('client', subscriptionProps),
  subscription_renewed: event('client', subscriptionProps),
  subscription_canceled: event('client', subscriptionProps),
  subscription_expired: event('client', subscriptionProps),
  // Recorded on each settle that charged credits: the amount and the reason, never text (worker/billing/ai-credits/paid-call.ts).
  ai_credit_debited: event('server', props({ credits: count, operation: z.enum(['chat', 'voice', 'other']) })),
  // Experiments: the client showed this variant; the first per unit is kept in experiment_exposures.
  experiment_exposed: event('client', props({ experimentKey, variant: experimentKey })),
} as const satisfies Record<string, EventDefinition>;

export type AnalyticsEventName = keyof typeof ANALYTICS_EVENTS;
export const ANALYTICS_EVENT_NAMES = Object.keys(ANALYTICS_EVENTS) as AnalyticsEventName[];

type Definitions = typeof ANALYTICS_EVENTS;
export type MeaningfulActionName = {
  [N in AnalyticsEventName]: Definitions[N]['domain'] extends ValueDomain ? N : never;
}[AnalyticsEventName];

/** The meaningful actions (count toward weekly progressing riders) and the value domain of each. */
export const MEANINGFUL_ACTIONS = Object.fromEntries(
  ANALYTICS_EVENT_NAMES.flatMap((name) => {
    const domain = ANALYTICS_EVENTS[name].domain;
    return domain ? [[name, domain]] : [];
  }),
) as Record<MeaningfulActionName, ValueDomain>;

/** Per event name, which copy the metrics count (see CountedFrom). */
export const COUNTED_FROM = Object.fromEntries(
  ANALYTICS_EVENT_NAMES.map((name) => [name, ANALYTICS_EVENTS[name].countedFrom]),
) as Record<AnalyticsEventName, CountedFrom>;

export const isAnalyticsEventName = (name: string): name is AnalyticsEventName => Object.hasOwn(ANALYTICS_EVENTS, name);

/** Events the API records itself carry this platform (worker/growth/analytics/server-events.ts); client events never do. */
export const SERVER_PLATFORM = 'server';

/** The event that reports an experiment variant was shown (worker/growth/analytics/exposures.ts). */
export const EXPOSURE_EVENT = 'experiment_exposed' satisfies AnalyticsEventName;

const meaningfulFrom = (from: CountedFrom) =>
  (Object.keys(MEANINGFUL_ACTIONS) as MeaningfulActionName[]).filter((name) => COUNTED_FROM[name] === from);

/**
 * The `analytics_events` filter that selects exactly the counted copy of each meaningful action:
 * the server's for names it records, the client's for the others (docs/analytics.md).
 */
export const COUNTED_MEANINGFUL_ACTIONS_FILTER = {
  $or: (['server', 'client'] as const).flatMap((from) => {
    const platform = from === 'server' ? SERVER_PLATFORM : { $ne: SERVER_PLATFORM };
    const conditionOf = (name: MeaningfulActionName) => (ANALYTICS_EVENTS[name] as EventDefinition).countedWhen;
    const names = meaningfulFrom(from);
    const plain = names.filter((name) => !conditionOf(name));
    return [
      ...(plain.length ? [{ name: { $in: plain }, platform }] : []),
      ...names.flatMap((name) => {
        const condition = conditionOf(name);
        return condition ? [{ name, platform, ...condition }] : [];
      }),
    ];
  }),
};
