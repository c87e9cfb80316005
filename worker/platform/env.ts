import type { DbGateway } from '../../durable-objects/db-gateway';
import type { MetricsStandIn } from '../../durable-objects/metrics-stand-in';
import type { RateLimiter } from '../../durable-objects/rate-limiter';
import type { RiderPresence } from '../../durable-objects/rider-presence';
import type { SocketShardBase } from '../../durable-objects/socket-shard';
import type { VoiceBox } from '../../durable-objects/voice-box';

/**
 * Bindings the Worker receives: `[vars]` in wrangler.toml, secrets, and Durable Objects.
 * Per-request variables are not here: each middleware exports the ones it sets, and
 * worker/platform/app-env.ts composes them.
 */
export interface Env {
  /** MongoDB connection string (a secret in production, `.dev.vars` locally). */
  MONGODB_URI?: string;
  /** Database name when MONGODB_URI's path names none (worker/platform/db/database-name.ts). */
  MONGODB_DB?: string;
  /** HS256 signing secret for session tokens. */
  JWT_SECRET?: string;
  /** Comma-separated Google OAuth client ids accepted as audience (web, iOS, Android). */
  GOOGLE_CLIENT_IDS?: string;
  GOOGLE_JWKS_URL?: string;
  /** Comma-separated Apple Services/Bundle ids accepted as audience. */
  APPLE_CLIENT_IDS?: string;
  APPLE_JWKS_URL?: string;
  /** Where a request's client address comes from (worker/platform/http/client-address.ts, docs/deploy.md). */
  CLIENT_ADDRESS_SOURCE?: string;
  /** Failed sign-ins allowed per client address per window; worker/platform/limits.ts holds the default. */
  SIGN_IN_MAX_FAILURES_PER_ADDRESS?: string;
  /** Registration attempts allowed per client address, and across the service, per hour; defaults in worker/platform/limits.ts. */
  REGISTRATIONS_PER_ADDRESS_PER_HOUR?: string;
  REGISTRATIONS_PER_HOUR?: string;
  /** HMAC-SHA256 key the payment provider signs webhooks with (a secret; worker/billing/subscriptions/payment-signature.ts). */
  PAYMENT_WEBHOOK_SECRET?: string;
  /** Price of the yearly premium product in USD (worker/billing/subscriptions/plans.ts); wrangler.toml sets the default. */
  PREMIUM_YEARLY_PRICE_USD?: string;
  /** Socket shards of the real-time layer, fixed names `shard-0` … (worker/platform/realtime/settings.ts); default in worker/platform/limits.ts. */
  REALTIME_SHARDS?: string;
  /** Engine.IO ping cadence announced to clients; defaults in worker/platform/limits.ts. */
  REALTIME_PING_INTERVAL_MS?: string;
  REALTIME_PING_TIMEOUT_MS?: string;
  /** Bounds on new real-time sessions (worker/platform/realtime/handshake-limit.ts, durable-objects/socket-shard.ts); defaults in worker/platform/limits.ts. */
  REALTIME_HANDSHAKES_PER_ADDRESS_PER_MINUTE?: string;
  REALTIME_SESSIONS_PER_SHARD?: string;
  REALTIME_CONNECT_TIMEOUT_MS?: string;
  /** Longest an isolate holds legacy-token counts before writing them (worker/platform/tokens/legacy-usage.ts); default in worker/platform/limits.ts. */
  LEGACY_USAGE_FLUSH_MS?: string;
  /** Event source one: a JSON list with HTML cards, read `?page=N` (the event sources spec, worker/events/ingestion/source-one.ts). */
  EVENT_SOURCE_ONE_URL?: string;
  /** Event source two: an HTML page with the events in its `__NEXT_DATA__` page data (worker/events/ingestion/source-two.ts). */
  EVENT_SOURCE_TWO_URL?: string;
  /** The voice box's base URL, e.g. http://127.0.0.1:8788 (voice-node/, docs/voice.md); `npm run dev` sets it. */
  VOICE_URL?: string;
  /** `required`: `/voice/ws` needs a session token (Planned hardening); unset or `off` for the existing clients. */
  VOICE_WS_AUTH?: string;
  /** Container instances of the voice box when VOICE_URL is unset (production; docs/voice.md, Deployment). */
  VOICE_INSTANCES?: string;
  /** The voice box's speech engine, `espeak` (default, costs nothing) or `openai` (priced): worker/companion/voice/settings.ts. */
  VOICE_ENGINE?: string;
  /** The companion's model (worker/companion/chat/providers/): no key means the offline companion. */
  OPENAI_API_KEY?: string;
  /** Any OpenAI-compatible chat-completions server; unset means OpenAI's own. */
  OPENAI_BASE_URL?: string;
  OPENAI_MODEL?: string;
  /** Per model request; default in worker/platform/limits.ts. */
  OPENAI_TIMEOUT_MS?: string;
  /** `openai`: posts, comments and photos also go to an OpenAI-compatible moderation model; unset: the word filter alone (docs/moderation.md). */
  MODERATION_PROVIDER?: string;
  /** The moderation model's base URL (`/v1/moderations` is appended); unset means OpenAI's own. */
  MODERATION_BASE_URL?: string;
  /** The moderation model's key (a secret); required once MODERATION_PROVIDER is set. */
  MODERATION_API_KEY?: string;
  /** The moderation model's name; default `omni-moderation-latest`. */
  MODERATION_MODEL?: string;
  /** How long a text check waits inside the request; default in worker/platform/limits.ts. */
  MODERATION_TIMEOUT_MS?: string;
  /** How long a list trusts its set of suspended and withheld riders, `0` for every request; default in worker/platform/limits.ts. */
  HIDDEN_RIDERS_CACHE_MS?: string;
  /** Companion chat messages per rider per minute; default in worker/platform/limits.ts. */
  COMPANION_MESSAGES_PER_MINUTE?: string;
  /** Rider searches allowed per rider, and per client address, per minute; defaults in worker/platform/limits.ts. */
  RIDER_SEARCHES_PER_MINUTE?: string;
  RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE?: string;
  /** Community event submissions per rider per rolling 24 hours; default in worker/platform/limits.ts. */
  EVENT_SUBMISSIONS_PER_DAY?: string;
  /** Private P-256 JWK (JSON) signing the mobile version policy (a secret; worker/growth/version-policy/signing.ts). */
  POLICY_SIGNING_KEY?: string;
  /** Base URL of Expo's push API, e.g. https://exp.host; /--/api/v2/push/send and /getReceipts are appended (docs/push.md). */
  EXPO_PUSH_URL?: string;
  /** Expo access token (a secret), sent as Bearer when the Expo project requires enhanced push security. */
  EXPO_ACCESS_TOKEN?: string;
  /** The VAPID public key web clients subscribe with (GET /api/push/vapid-public-key). */
  VAPID_PUBLIC_KEY?: string;
  /** The VAPID private key (a secret): the P-256 scalar, base64url, web pushes are signed with (worker/notifications/push/vapid.ts). */
  VAPID_PRIVATE_KEY?: string;
  /** The VAPID contact push services may write to: a `mailto:` or `https:` URL (RFC 8292 `sub`). */
  VAPID_SUBJECT?: string;
  /** `allow`: web push subscriptions to http://127.0.0.1 and http://localhost are accepted (local push-service stand-ins; `npm run dev` and the tests set it). */
  WEB_PUSH_LOCAL_ENDPOINTS?: string;
  /** Comma-separated push-service hosts (`*.` for subdomains) web pushes may go to; unset: the browsers' own (worker/notifications/push-tokens/web-endpoint.ts). */
  WEB_PUSH_HOSTS?: string;
  /** `gateway` (default): queries go through the connection-holding objects; `direct`: a client per request (worker/platform/db/connection.ts). */
  DB_ACCESS?: string;
  /** Gateway objects to spread over, and connections each holds (maxPoolSize); defaults in worker/platform/limits.ts. */
  DB_GATEWAYS?: string;
  DB_POOL_SIZE?: string;
  /** Location hint for the gateway objects, near the cluster, e.g. `weur` (docs/data-path.md). */
  DB_GATEWAY_LOCATION?: string;
  DB_GATEWAY: DurableObjectNamespace<DbGateway>;
  /** Workers Analytics Engine dataset of per-request data points (docs/operations.md); unbound, requests are only logged. */
  METRICS?: AnalyticsEngineDataset;
  /** LOCAL ONLY (`npm run dev`, the stacks, the tests): keeps the points METRICS would get, for /admin/ops (durable-objects/metrics-stand-in.ts). */
  METRICS_STAND_IN?: DurableObjectNamespace<MetricsStandIn>;
  /** The previous JWT_SECRET during a rotation: it still verifies, never signs (docs/sessions.md). */
  JWT_SECRET_PREVIOUS?: string;
  /** HMAC key deriving a spent refresh token's successor (a secret; worker/accounts/sessions/refresh-token.ts). */
  REFRESH_TOKEN_SECRET?: string;
  /** Opt-in access token lifetime in seconds; default in worker/platform/limits.ts. */
  ACCESS_TOKEN_TTL_S?: string;
  /** Days a session lives past its last refresh; default in worker/platform/limits.ts. */
  REFRESH_TOKEN_TTL_DAYS?: string;
  /** Seconds a spent refresh token still gets the same successor; default in worker/platform/limits.ts. */
  REFRESH_GRACE_S?: string;
  /** The origin identity-provider callbacks are registered for (staging sets its own; docs/deploy.md). */
  PUBLIC_ORIGIN?: string;
  /** Paid AI work (worker/billing/paid-ai.ts): daily companion replies per plan, then credits; defaults in worker/platform/limits.ts. */
  AI_DAILY_REPLIES_FREE?: string;
  AI_DAILY_REPLIES_PREMIUM?: string;
  /** USD micros per credit, the most a reply reserves, speech per 1,000 characters, premium's monthly grant. */
  AI_CREDIT_MICROS?: string;
  AI_REPLY_MAX_CREDITS?: string;
  AI_SPEECH_CREDITS_PER_1K_CHARS?: string;
  AI_PREMIUM_MONTHLY_CREDITS?: string;
  /** The embeddings model at OPENAI_BASE_URL; with a VECTORIZE binding the companion's look-ups are semantic. */
  OPENAI_EMBEDDING_MODEL?: string;
  /** Optional Vectorize index for the companion's retrieval; absent: keyword search in the database. */
  VECTORIZE?: VectorizeIndex;
  /** Riders' photos and videos (worker/social/media/, docs/media.md): an R2 bucket, simulated locally by wrangler dev and the tests. */
  MEDIA: R2Bucket;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** Typed by the base class: the Worker's subclass (worker/social/socket-rooms.ts) adds no RPC methods. */
  SOCKET_SHARD: DurableObjectNamespace<SocketShardBase>;
  RIDER_PRESENCE: DurableObjectNamespace<RiderPresence>;
  VOICE_BOX: DurableObjectNamespace<VoiceBox>;
}
