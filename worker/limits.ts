/** Every numeric limit of the service, in one place: routes, schemas and tests import these. */
export const LIMITS = {
  /** Largest JSON body accepted (product decisions: too large → 413). */
  requestBodyBytes: 1024 * 1024,
  /** List pages (product decisions). */
  pageSizeDefault: 20,
  pageSizeMax: 100,
  password: { min: 8, max: 128 },
  name: { min: 1, max: 100 },
  email: { max: 254 },
  /** Longest URL stored for a picture; longer ones are not links a client made. */
  urlMax: 2048,
  /** Longest identity-provider token accepted: Google and Apple ID tokens are about 1 KB. */
  idTokenMax: 8192,
  /** Longest free-text search string. */
  searchQueryMax: 200,
  /** bcrypt cost (interface spec: salt rounds 10). */
  bcryptRounds: 10,
  /** Retry-After on a 503 while the database is unreachable: long enough for a restart, short for a blip. */
  databaseRetryAfterSeconds: 5,
  /** Free-tier spot lists: creation blocked once a non-premium user owns this many. */
  freeSpotLists: 3,
  /** Trickipedia, blog and categories (worker/trickipedia/, worker/blog/, worker/categories/). */
  content: {
    /** Slugs end up in URLs; long enough for any title, short enough to read. */
    slugMax: 100,
    titleMax: 200,
    descriptionMax: 10_000,
    /** A blog body is markdown text; 100,000 characters is a long article, well under the request body limit. */
    blogBodyMax: 100_000,
    excerptMax: 500,
    aliasesMax: 20,
    tagsMax: 20,
    tagMax: 50,
    difficulty: { min: 1, max: 5 },
  },
  signIn: {
    windowMs: 15 * 60 * 1000,
    /** Per email (interface spec: 5 attempts per 15 minutes). */
    maxFailuresPerEmail: 5,
    /**
     * Per client address, higher: many riders share one address (mobile carriers, campuses,
     * every request of a local stack), so 5 would let one person's typos lock out everyone
     * behind it. The per-email limit still stops guessing at any one account.
     * SIGN_IN_MAX_FAILURES_PER_ADDRESS overrides it.
     */
    maxFailuresPerAddress: 50,
  },
} as const;
