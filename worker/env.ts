import type { RateLimiter } from '../durable-objects/rate-limiter';
import type { Store } from './db/store';

/** Bindings the Worker receives: `[vars]` in wrangler.toml, secrets, and Durable Objects. */
export interface Env {
  /** MongoDB connection string (a secret in production, `.dev.vars` locally). */
  MONGODB_URI?: string;
  /** Database name when MONGODB_URI's path names none (worker/db/database-name.ts). */
  MONGODB_DB?: string;
  /** HS256 signing secret for session tokens. */
  JWT_SECRET?: string;
  /** Comma-separated Google OAuth client ids accepted as audience (web, iOS, Android). */
  GOOGLE_CLIENT_IDS?: string;
  GOOGLE_JWKS_URL?: string;
  /** Comma-separated Apple Services/Bundle ids accepted as audience. */
  APPLE_CLIENT_IDS?: string;
  APPLE_JWKS_URL?: string;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
}

/** Per-request values handlers read with `c.var`. */
export interface Variables {
  db: Store;
  user: import('./auth/token').TokenClaims;
}

export type AppEnv = { Bindings: Env; Variables: Variables };
