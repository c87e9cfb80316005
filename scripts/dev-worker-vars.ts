// What `npm run dev` hands the Worker: the stack's own values, then every Worker setting found in its environment.
// Passed as `wrangler dev --var`, which wins over `.dev.vars`, so a setting in the environment wins over the file too.

/** Every setting the Worker reads (worker/platform/env.ts, the README's configuration table); bindings are not settings. */
export const WORKER_SETTINGS = [
  'MONGODB_URI',
  'MONGODB_DB',
  'JWT_SECRET',
  'JWT_SECRET_PREVIOUS',
  'GOOGLE_CLIENT_IDS',
  'GOOGLE_JWKS_URL',
  'APPLE_CLIENT_IDS',
  'APPLE_JWKS_URL',
  'CLIENT_ADDRESS_SOURCE',
  'SIGN_IN_MAX_FAILURES_PER_ADDRESS',
  'REGISTRATIONS_PER_ADDRESS_PER_HOUR',
  'REGISTRATIONS_PER_HOUR',
  'PAYMENT_WEBHOOK_SECRET',
  'PREMIUM_YEARLY_PRICE_USD',
  'REALTIME_SHARDS',
  'REALTIME_PING_INTERVAL_MS',
  'REALTIME_PING_TIMEOUT_MS',
  'REALTIME_CONNECT_TIMEOUT_MS',
  'REALTIME_HANDSHAKES_PER_ADDRESS_PER_MINUTE',
  'REALTIME_SESSIONS_PER_SHARD',
  'LEGACY_USAGE_FLUSH_MS',
  'EVENT_SOURCE_ONE_URL',
  'EVENT_SOURCE_TWO_URL',
  'VOICE_URL',
  'VOICE_WS_AUTH',
  'VOICE_INSTANCES',
  // The voice box reads it from the same environment: the Worker prices speech by it.
  'VOICE_ENGINE',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'OPENAI_TIMEOUT_MS',
  'OPENAI_EMBEDDING_MODEL',
  'MODERATION_PROVIDER',
  'MODERATION_BASE_URL',
  'MODERATION_API_KEY',
  'MODERATION_MODEL',
  'MODERATION_TIMEOUT_MS',
  'HIDDEN_RIDERS_CACHE_MS',
  'COMPANION_MESSAGES_PER_MINUTE',
  'RIDER_SEARCHES_PER_MINUTE',
  'RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE',
  'EVENT_SUBMISSIONS_PER_DAY',
  'POLICY_SIGNING_KEY',
  'EXPO_PUSH_URL',
  'EXPO_ACCESS_TOKEN',
  'VAPID_PUBLIC_KEY',
  'VAPID_PRIVATE_KEY',
  'VAPID_SUBJECT',
  'WEB_PUSH_LOCAL_ENDPOINTS',
  'WEB_PUSH_HOSTS',
  'DB_ACCESS',
  'DB_GATEWAYS',
  'DB_POOL_SIZE',
  'DB_GATEWAY_LOCATION',
  'REFRESH_TOKEN_SECRET',
  'ACCESS_TOKEN_TTL_S',
  'REFRESH_TOKEN_TTL_DAYS',
  'REFRESH_GRACE_S',
  'PUBLIC_ORIGIN',
  'AI_DAILY_REPLIES_FREE',
  'AI_DAILY_REPLIES_PREMIUM',
  'AI_CREDIT_MICROS',
  'AI_REPLY_MAX_CREDITS',
  'AI_SPEECH_CREDITS_PER_1K_CHARS',
  'AI_PREMIUM_MONTHLY_CREDITS',
] as const;

/** Settings of the configuration table read by the local stack's scripts (and the dev database), never by the Worker. */
export const LOCAL_STACK_SETTINGS = [
  'PORT',
  'DB_PORT',
  'VOICE_PORT',
  'INSPECTOR_PORT',
  'DEVDB_DATA',
  'DEVDB_LATENCY_MS',
  'DEVDB_HANDSHAKE_MS',
  'WRANGLER_STATE',
  'CLOUDFLARE_CF_FETCH_ENABLED',
  'WRANGLER_SEND_METRICS',
] as const;

/** The Worker's vars: the stack's own values, each overridden by a non-empty setting of the same name in `env`. */
export function workerVars(
  env: Record<string, string | undefined>,
  stackValues: Record<string, string>,
): Record<string, string> {
  const vars = { ...stackValues };
  for (const name of WORKER_SETTINGS) {
    const value = env[name];
    if (value) vars[name] = value;
  }
  return vars;
}

/** `wrangler dev` arguments passing `vars`. */
export function varArguments(vars: Record<string, string>): string[] {
  return Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
}
