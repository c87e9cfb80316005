// No imports: Node-side scripts share this with the Worker (worker/platform/db/database-name.ts).

export type SettingName =
  | 'MONGODB_URI'
  | 'MONGODB_DB'
  | 'JWT_SECRET'
  | 'GOOGLE_CLIENT_IDS'
  | 'APPLE_CLIENT_IDS'
  | 'GOOGLE_JWKS_URL'
  | 'APPLE_JWKS_URL'
  | 'CLIENT_ADDRESS_SOURCE'
  | 'SIGN_IN_MAX_FAILURES_PER_ADDRESS'
  | 'REGISTRATIONS_PER_ADDRESS_PER_HOUR'
  | 'REGISTRATIONS_PER_HOUR'
  | 'REALTIME_HANDSHAKES_PER_ADDRESS_PER_MINUTE'
  | 'REALTIME_SESSIONS_PER_SHARD'
  | 'REALTIME_CONNECT_TIMEOUT_MS'
  | 'PAYMENT_WEBHOOK_SECRET'
  | 'PREMIUM_YEARLY_PRICE_USD'
  | 'REALTIME_SHARDS'
  | 'REALTIME_PING_INTERVAL_MS'
  | 'REALTIME_PING_TIMEOUT_MS'
  | 'LEGACY_USAGE_FLUSH_MS'
  | 'EVENT_SOURCE_ONE_URL'
  | 'EVENT_SOURCE_TWO_URL'
  | 'VOICE_URL'
  | 'VOICE_WS_AUTH'
  | 'VOICE_ENGINE'
  | 'VOICE_INSTANCES'
  | 'OPENAI_API_KEY'
  | 'OPENAI_BASE_URL'
  | 'OPENAI_MODEL'
  | 'OPENAI_TIMEOUT_MS'
  | 'COMPANION_MESSAGES_PER_MINUTE'
  | 'RIDER_SEARCHES_PER_MINUTE'
  | 'RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE'
  | 'EVENT_SUBMISSIONS_PER_DAY'
  | 'POLICY_SIGNING_KEY'
  | 'EXPO_PUSH_URL'
  | 'EXPO_ACCESS_TOKEN'
  | 'VAPID_PUBLIC_KEY'
  | 'VAPID_PRIVATE_KEY'
  | 'VAPID_SUBJECT'
  | 'WEB_PUSH_LOCAL_ENDPOINTS'
  | 'WEB_PUSH_HOSTS'
  | 'DB_ACCESS'
  | 'DB_GATEWAYS'
  | 'DB_POOL_SIZE'
  | 'JWT_SECRET_PREVIOUS'
  | 'REFRESH_TOKEN_SECRET'
  | 'ACCESS_TOKEN_TTL_S'
  | 'REFRESH_TOKEN_TTL_DAYS'
  | 'REFRESH_GRACE_S'
  | 'AI_DAILY_REPLIES_FREE'
  | 'AI_DAILY_REPLIES_PREMIUM'
  | 'AI_CREDIT_MICROS'
  | 'AI_REPLY_MAX_CREDITS'
  | 'AI_SPEECH_CREDITS_PER_1K_CHARS'
  | 'AI_PREMIUM_MONTHLY_CREDITS'
  | 'OPENAI_EMBEDDING_MODEL'
  | 'MODERATION_PROVIDER'
  | 'MODERATION_BASE_URL'
  | 'MODERATION_API_KEY'
  | 'MODERATION_MODEL'
  | 'MODERATION_TIMEOUT_MS'
  | 'HIDDEN_RIDERS_CACHE_MS';

/**
 * A required setting is missing or unusable: an operator error. worker/platform/http/on-error.ts
 * turns it into a 500 that names the setting; nothing falls back to a made-up default.
 */
export class MissingSettingError extends Error {
  constructor(
    readonly setting: SettingName,
    problem = 'is not set',
  ) {
    super(
      `Server misconfigured: ${setting} ${problem}. Set it in .dev.vars locally or with \`wrangler secret put ${setting}\`.`,
    );
    this.name = 'MissingSettingError';
  }
}
