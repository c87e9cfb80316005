/** Every numeric limit of the service, in one place: routes, schemas and tests import these. */
export const LIMITS = {
  /** Largest JSON body accepted (decisions.md: too large → 413). */
  requestBodyBytes: 1024 * 1024,
  /** List pages (decisions.md). */
  pageSizeDefault: 20,
  pageSizeMax: 100,
  password: { min: 8, max: 128 },
  name: { min: 1, max: 100 },
  email: { max: 254 },
  /** bcrypt cost (spec: salt rounds 10). */
  bcryptRounds: 10,
  /** Free-tier spot lists: creation blocked once a non-premium user owns this many. */
  freeSpotLists: 3,
  /** Sign-in rate limit (spec: 5 attempts per 15 minutes), per email and per client IP. */
  signIn: { maxFailures: 5, windowMs: 15 * 60 * 1000 },
} as const;
