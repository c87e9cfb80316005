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
  /**
   * How recently an ID token sent as proof of identity (a first password, an identity-provider-only account's new
   * address) must have been issued: long enough to sign in with the provider again and type a password, short
   * enough that a token picked up earlier in a session is no proof.
   */
  identityProofMaxAgeSeconds: 10 * 60,
  /** Longest free-text search string. */
  searchQueryMax: 200,
  /** Rider search (docs/connections.md): the shortest query, so one letter never scans every account. */
  riderSearch: {
    queryMin: 2,
    /** Counting window of the search limits (worker/social/profiles/search-limit.ts). */
    windowMs: 60 * 1000,
    /**
     * Per rider: a search box asking on each keystroke a rider types stays far below it, a script walking the
     * directory does not. RIDER_SEARCHES_PER_MINUTE overrides it.
     */
    perRider: 60,
    /**
     * Per client address, higher: many riders share one (carriers, campuses), and one script's many accounts
     * behind an address still meet it. RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE overrides it.
     */
    perAddress: 600,
  },
  /** bcrypt cost (interface spec: salt rounds 10). */
  bcryptRounds: 10,
  /** Retry-After on a 503 while the database is unreachable: long enough for a restart, short for a blip. */
  databaseRetryAfterSeconds: 5,
  /** The database gateway (durable-objects/db-gateway.ts, docs/data-path.md); DB_GATEWAYS and DB_POOL_SIZE override. */
  objectCounters: {
    /** Presence objects one read of the counters may name: each is one RPC from the Worker. */
    riders: 100,
  },
  dbGateway: {
    /** Gateway objects a Worker spreads its operations over. */
    objects: 2,
    /** Connections each object's client may hold (maxPoolSize); a Worker sends more in flight to the next object. */
    poolSize: 10,
    /** Connection strings one object keeps a client for; the least recently used beyond this is closed. */
    clientsPerObject: 8,
    /** Documents one grouped insert carries at most (durable-objects/insert-group.ts): five full ingestion batches. */
    insertGroupDocuments: 500,
    /**
     * Bytes of encoded documents one grouped insert carries at most. A part alone is one BSON encoding, at most
     * about 16 MB (insert-keeping-first.ts), so a group stays under the server's 48 MB message wherever its parts fit.
     */
    insertGroupBytes: 16 * 1024 * 1024,
    /** How long a Worker avoids an object whose call failed. */
    failedObjectPauseMs: 5_000,
  },
  /** Spot reviews: star rating and the length of the text. */
  review: { ratingMin: 1, ratingMax: 5, textMax: 2000 },
  /** A landing may be logged up to this far ahead of the server clock (time zones, clock drift). */
  landedAtSkewMs: 24 * 60 * 60 * 1000,
  /** Premium monthly price in USD (interface spec, Limits); the yearly one is the PREMIUM_YEARLY_PRICE_USD setting. */
  premiumMonthlyPriceUsd: 10,
  /** Free-tier spot lists: creation blocked once a non-premium user owns this many. */
  freeSpotLists: 3,
  /** Trick list and trick names: a short label, as an account name. */
  trickListName: { min: 1, max: 100 },
  trickName: { min: 1, max: 100 },
  /** Longest payment-provider event id accepted; providers use ids of a few dozen characters. */
  paymentEventIdMax: 255,
  /** Spots one spot list holds: keeps a list document far below MongoDB's 16 MB document limit. */
  spotsPerListMax: 1000,
  /** Stays on a spot (interface spec: the Stay table and its Limits rows). */
  stay: {
    priceLevelMin: 1,
    priceLevelMax: 4,
    ratingMax: 5,
    /** sourceConfidence bands (interface spec): lower bounds of the three shown bands, best first. */
    confidenceBands: [0.9, 0.7, 0.5],
    /** Below this a stay is hidden from the default ranking until reviewed (interface spec). */
    confidenceShown: 0.5,
    /** "distance under 200 preferred" (interface spec): the search's default maxDistanceKm. */
    searchDistanceKmDefault: 200,
    /** Half the Earth's circumference: no place on it is farther. */
    distanceKmMax: 20_038,
    /** The spot radius of `near` when radiusKm is not given, and the largest accepted. */
    nearRadiusKmDefault: 50,
    nearRadiusKmMax: 1000,
    /** A night's price in any currency unit; anything larger is a typo. */
    nightlyPriceMax: 1_000_000,
    reviewCountMax: 100_000_000,
    nameMax: 200,
    /** address, city, state, country, source. */
    fieldMax: 200,
    notesMax: 2000,
    tagsMax: 20,
    tagMax: 50,
    /** Stays live inside the spot document (16 MB cap): a bound keeps every spot writable. */
    perSpotMax: 200,
  },
  /** Trickipedia, blog and categories (worker/riding/trickipedia/, worker/riding/blog/, worker/riding/categories/). */
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
  /** Registration (POST /api/users): every attempt counts, whatever its answer (worker/accounts/sign-in/registration-limit.ts). */
  registration: {
    windowMs: 60 * 60 * 1000,
    /**
     * Per client address (an IPv6 address by its /64): a script's accounts each carry fresh per-rider
     * allowances. A school or club registering a class behind one address needs REGISTRATIONS_PER_ADDRESS_PER_HOUR
     * raised to the class size for that hour.
     */
    perAddress: 10,
    /** Across the service, a circuit breaker against a script spread over many addresses. REGISTRATIONS_PER_HOUR overrides it. */
    total: 1000,
  },
  /** Spot text fields: long enough for any real name or address, short enough to list 100 at once. */
  spot: { nameMax: 120, descriptionMax: 5000, addressMax: 300, placeMax: 100 },
  /** `GET /api/spots?near=` radius in km: a day's drive by default; the most a map view asks for at most. */
  spotSearchRadiusKm: { default: 50, max: 500 },
  /** Spot sync pages for the browser extension: a first sync of 10,000 spots takes 20 requests. */
  spotSync: { pageDefault: 500, pageMax: 1000 },
  /** Deleted-spot tombstones are kept this long; an extension silent for longer gets a full sync. */
  spotTombstoneDays: 45,
  /** The last sync page's cursor stays this far behind the clock: a write stamped earlier but stored later (clock skew between Workers, a slow write) is sent again, not skipped. */
  spotSyncSettleMs: 5000,
  /** Direct messages: a group chat of 20 covers a crew; 2000 characters is a long message, far below the body limit. */
  conversation: { participantsMin: 2, participantsMax: 20, messageTextMax: 2000 },
  /** Feed posts and their comments (worker/social/feed/, worker/social/comments/): a caption and a carousel, not an article. */
  feed: { textMax: 2000, mediaMax: 10, commentMax: 1000 },
  /** Reports (worker/social/reports/): a reason from the list plus a short note for the admin desk. */
  report: {
    noteMax: 1000,
    /** Distinct riders whose open reports hold a target from everyone but its author until an admin decides. */
    withholdAtRiders: 3,
    /** App Review asks for reports acted on within 24 hours: an item open this long is flagged while 4 are left. */
    agedItemHours: 20,
    /** The share of items answered within this many hours is the queue's figure of timeliness. */
    answeredWithinHours: 24,
    /** Items one page of the admins' queue shows; the admin works from the top. */
    queuePageMax: 100,
    /** Aged items named by an event line per cron run; the metric counts them all. */
    agedLinesPerRun: 20,
    /** A reason an admin gives for a decision: a sentence or two the rider reads. */
    decisionReasonMax: 500,
  },
  /** What keeps riders' content within the rules (docs/moderation.md, "Held for review"). */
  moderation: {
    /**
     * A post's or comment's text waits this long for the moderation model inside the request (it runs beside the
     * post's other reads): longer, and the post is published and checked later. MODERATION_TIMEOUT_MS.
     */
    modelTimeoutMs: 1500,
    /** A photo is sent whole (up to LIMITS.media.photoMaxBytes), so it may take longer; still inside the upload. */
    photoTimeoutMs: 5000,
    /** How long a list trusts its set of hidden riders (suspended or withheld): a lift or suspension shows within it. HIDDEN_RIDERS_CACHE_MS. */
    hiddenRidersCacheMs: 15_000,
    /** Hidden riders one list reads at most: a suspended rider among more would show; far above any real count. */
    hiddenRidersMax: 10_000,
    /** Databases an isolate keeps a hidden-rider set for (one in production; the tests' files each have their own). */
    hiddenRidersCacheEntries: 64,
    /** Later checks (the model was out): first retried this long after, doubling each time up to the cap. */
    checkRetryMinutes: 5,
    checkRetryMaxMinutes: 60,
    /** ...and given up after this many tries (about a day), logged so an operator checks it by hand. */
    checkMaxAttempts: 30,
    /** A later-check run claims this many rows at a time, and sees at most this many, inside the Cron Trigger's time. */
    checkBatchRows: 20,
    checkRunMaxRows: 200,
    /** Longer than any run: a crashed run's rows come back after it. */
    checkLeaseMinutes: 10,
  },
  /** Riders' photos and videos (worker/social/media/, docs/media.md). */
  media: {
    /** One photo, sent in one request: a 12-megapixel phone JPEG is 3–8 MB, HEIF converted larger. */
    photoMaxBytes: 15 * 1024 * 1024,
    /**
     * Pixels a photo may have, as its header states them: every viewer's phone decodes the whole picture (4 bytes a
     * pixel, so 256 MB here), and a few hundred KB of PNG can claim a billion. 48-megapixel phone stills and 63-megapixel
     * panoramas fit.
     */
    photoMaxPixels: 64_000_000,
    /** One video, sent in parts: a few minutes of phone video at 1080p. */
    videoMaxBytes: 200 * 1024 * 1024,
    /** Bytes a rider may upload per UTC day, photos and videos together. */
    dailyBytesPerRider: 1024 * 1024 * 1024,
    /** A video part: R2's smallest part (all but the last), so a dropped connection loses at most this much. */
    partBytes: 5 * 1024 * 1024,
    /** Media not attached to a post or profile this long after its record was made is deleted. */
    unattachedHours: 24,
    /** A video upload not completed within this is aborted and forgotten. */
    uploadDays: 7,
    /** Media of a post removed by moderation stays hidden this long (for appeals), then goes. */
    hiddenDays: 30,
    /** A complete that stopped midway (its Worker gone) holds the upload this long before another may take it over. */
    completeClaimSeconds: 60,
    /** Cache-Control max-age of public media: media of a removed or deleted post must leave caches within a day. */
    publicMaxAgeSeconds: 24 * 60 * 60,
    /** The most of a video's movie box read for its duration and size. */
    movieBoxReadBytes: 1024 * 1024,
    /** A video's box headers are read from the bucket in blocks this size, so a walk of its boxes costs a few reads. */
    movieReadBlockBytes: 64 * 1024,
    /** Blocks kept while walking a video's boxes: a movie box's metadata lies in a few neighbouring blocks. */
    movieReadBlocksKept: 32,
    /** Records one cleanup run handles per kind, well inside a Cron Trigger's time. */
    cleanupBatch: 500,
  },
  /** The word filter of what riders publish (worker/moderation/word-filter/, docs/moderation.md). */
  wordFilter: {
    /** One admin term: a word or a short phrase. */
    termMax: 64,
    /** Terms admins may list at once: every text is matched against all of them. */
    termsMax: 2000,
    /** A Worker reads the term list again after this: an admin's edit is in force everywhere within a minute. */
    termListCacheMs: 30_000,
    /** Databases whose term lists a Worker keeps at once (one in production; tests give each file its own). */
    termListCacheEntries: 16,
    /** Why an admin edited the list, for the action log. */
    reasonMax: 500,
  },
  ops: {
    /** The local metrics stand-in and /admin/ops cover the last hour, as the page's figures say. */
    figuresWindowMs: 60 * 60_000,
    /** Points the local stand-in keeps at most: an hour of a local bench's load, oldest dropped first. */
    standInPointsMax: 50_000,
  },
  /** The /feed and /messages rooms (durable-objects/socket-shard.ts, docs/realtime.md). */
  realtime: {
    /** Engine.IO's own defaults: a ping every 25 s keeps mobile NATs open; 20 s more before a client gives up. */
    pingIntervalMs: 25_000,
    pingTimeoutMs: 20_000,
    /** Largest frame a client may send: a 2000-character message in JSON with room to spare. */
    maxPayloadBytes: 100_000,
    /** A typing indicator stops by itself this long after its last start: clients refresh every few seconds. */
    typingTtlMs: 5000,
    /** Socket shards: about 1,000 connected riders each keeps a shard well under a Durable Object's request budget. */
    shards: 8,
    /** Participants of a conversation a shard remembers for relaying typing, before asking the database again. */
    peerCacheMs: 60_000,
    /** Conversations a shard remembers participants of at once: typing frames name them, so a client must not grow it. */
    peerCacheEntries: 500,
    /**
     * New Engine.IO sessions (either transport) per client address per minute: an app opens one per connect and
     * reconnects with backoff, so 100 leaves room for a campus or carrier behind one address, while a script's
     * burst is held to it. REALTIME_HANDSHAKES_PER_ADDRESS_PER_MINUTE overrides it.
     */
    handshakesPerAddress: 100,
    handshakeWindowMs: 60_000,
    /**
     * Sessions one shard holds before it refuses new ones (503): four times the ~1,000 a shard is planned for,
     * room for uneven placement and a reset's reconnects, far below the runtime's 32,768 WebSockets per object.
     * REALTIME_SESSIONS_PER_SHARD overrides it.
     */
    sessionsPerShard: 4000,
    /** Retry-After of a full shard's 503: a retry goes to a random shard, so a short wait finds room. */
    shardFullRetryAfterSeconds: 5,
    /**
     * A session that joined no namespace this long after its handshake is closed: socket.io-client connects its
     * namespaces right after the open packet, so only a client that never will is still unjoined (Socket.IO's
     * own connectTimeout is 45 s). REALTIME_CONNECT_TIMEOUT_MS overrides it.
     */
    connectTimeoutMs: 10_000,
    /**
     * Namespace connect packets one connection may send in a window, refused or not: each costs a token check, a
     * database read and a presence write. socket.io-client sends one per namespace, and again only when the app
     * reconnects a namespace it left or that was refused, so 20 a minute is far beyond an app and keeps one
     * connection's flood from starving its shard's other riders; past it the connection is closed (1008).
     */
    connectsPerConnection: 20,
    connectWindowMs: 60_000,
    /**
     * What a long-polling session may have queued for its next poll before it is closed as a client that does not
     * read: a client polls again as soon as a poll is answered, so its queue holds what arrives in one round trip
     * (a few events of a few hundred bytes), while one that posts and never polls would fill the shard's memory
     * (about 128 MB for every rider on it). Bytes are counted as the frames' length: their JSON is mostly ASCII.
     */
    pollQueuePackets: 1000,
    pollQueueBytes: 100_000,
  },
  /** Scheduled event ingestion (worker/events/ingestion/). */
  ingestion: {
    /** Events per bulkWrite: one round trip per batch, each far below the 48 MB message limit. */
    writeBatch: 500,
    /** Source one pages read per run: 100 pages of its usual size is far beyond any real listing, and a `pages` count past it is a shape change. */
    pagesMax: 100,
    /** A source that answered at least this many events on its last successful run and now answers none has changed shape. */
    zeroEventsAfter: 5,
    /** More than half a listing's items unreadable is a format change, not a few bad items: the run fails, writing nothing. */
    rejectedShareMax: 0.5,
    /** Upstream request timeout: a stuck source fails its run instead of holding the cron invocation. */
    fetchTimeoutMs: 15_000,
    /** Event dates are calendar days at noon UTC; the day is over everywhere (UTC-12) a day later. */
    dayOverAfterMs: 24 * 60 * 60 * 1000,
  },
  /** Events (worker/events/catalog/): the Live list's fixed page and default window (the interface spec, "Events (Live)"). */
  events: {
    pageSize: 20,
    defaultWindowDays: 30,
    /** `date=week`: today and the six days after it. */
    weekDays: 7,
    /** Deepest numeric offset accepted: 5,000 pages of 20; deeper walks use `paging=keyset`. */
    offsetMax: 100_000,
    /** A slug is a title slug (content.slugMax) plus a seven-character suffix; ids are 24 characters. */
    slugOrIdMax: 120,
    /** Events in one calendar feed: a year of a busy region, far below what calendar apps choke on. */
    calendarMax: 500,
    /** Pins in one map answer: more than a map view can show without clustering. */
    mapPinsMax: 500,
    /** Similar events: a handful, chosen among the candidates nearest in time within the window. */
    similarMax: 6,
    similarCandidates: 200,
    similarWindowDays: 60,
    /** An event that started this long before a window is not looked at for it: bounds the startAt index scan; festivals and contests run days, not months. */
    longestRunDays: 60,
    /** Community submissions per rider per rolling 24 hours (EVENT_SUBMISSIONS_PER_DAY overrides). */
    submissionsPerDay: 5,
    submissionWindowMs: 24 * 60 * 60 * 1000,
    /** Lists a submission may carry: sports, disciplines, kinds, divisions, schedule sessions. */
    submitListMax: 20,
    submitTextMax: 200,
    /** Admin desk pages (queue, duplicates, stale). */
    deskPageMax: 100,
  },
  /** The AI companion (worker/companion/; the interface spec, Limits). */
  companion: {
    /** One chat message (the product decisions: 1..2000 characters). */
    messageMax: 2000,
    /** Tool-calling iterations per reply, then one answer without tools (interface spec). */
    toolIterationsMax: 3,
    /** Memory: the newest rows read from each store, and how many of the merge the model sees (interface spec). */
    memoryPerStore: 8,
    memoryMax: 12,
    /** Reply register: 1 to 3 short sentences (interface spec). */
    replySentencesMax: 3,
    /** A message's first characters, all that its keyword patterns read (intents, mood, coaching turn, stage demo). */
    readCharsMax: 100,
    /** Asks ("show me", "do", …) of a message read for a stage demo request: each costs a trick name's length. */
    demoAsksMax: 2,
    /** Words a rider's message needs for the turn to count as coaching (a greeting or "thanks" does not). */
    substantiveWordsMin: 4,
    /** Remembered facts per rider, newest kept; a fact is one short sentence. */
    factsMax: 20,
    factMax: 200,
    /** Rows a tool hands the model: enough to choose from, few enough to stay cheap. */
    toolRowsMax: 5,
    /** A tool result longer than this is cut: the model pays per token. */
    toolResultCharsMax: 4000,
    /** A model request; the SDK retries once on 429/5xx, so a reply waits at most about twice this. */
    modelTimeoutMs: 20_000,
    /** Retry-After on the 503 when the model is unreachable or rate-limited: past a typical rate-limit reset. */
    providerRetryAfterSeconds: 10,
    /** Model calls cost money: per rider per minute, COMPANION_MESSAGES_PER_MINUTE overrides it. */
    messagesPerMinute: 30,
    rateWindowMs: 60_000,
    /** A speak request that has not been answered by then is dropped: the voice box is fire-and-forget. */
    speakTimeoutMs: 3000,
    /** A turn this long after the previous one starts a new AI session (ai_session_started). */
    sessionGapMs: 30 * 60 * 1000,
  },
  /** Paid AI work (worker/billing/paid-ai.ts, worker/billing/ai-credits/): defaults of the AI_* settings and the ledger's bounds. */
  aiCredits: {
    /** A free rider's companion replies a day before credits: enough for a real chat, not for a bot farm. */
    dailyRepliesFree: 20,
    dailyRepliesPremium: 500,
    /** One credit is a tenth of a US cent of model cost: a gpt-4o-mini reply costs one. */
    creditMicros: 1000,
    /** Reserved before a paid reply: a long tool-calling turn on gpt-4o-mini stays well below it. */
    replyMaxCredits: 20,
    speechCreditsPer1kChars: 5,
    premiumMonthlyCredits: 1000,
    /** A reservation this old belongs to a request that died: a reply times out long before (modelTimeoutMs twice). */
    reservationStaleMs: 5 * 60 * 1000,
    /** Holds the sweep releases per database round: bounds one bulk write. */
    sweepBatch: 500,
    /** An admin grant: a typo guard, and the reason a short note. */
    adminGrantMax: 1_000_000,
    reasonMax: 200,
    /** A purchase in one webhook event. */
    purchaseMax: 10_000_000,
  },
  /** Client heartbeat (worker/growth/client-heartbeat/): installation ids are client-made UUIDs or similar opaque ids. */
  heartbeat: { installationIdMin: 8, installationIdMax: 100, fieldMax: 100, versionMax: 64, buildMax: 2_147_483_647 },
  /** Mobile version policy (worker/growth/version-policy/; the interface spec, Client installation and version policy). */
  versionPolicy: {
    titleMax: 100,
    messageMax: 1000,
    reasonMax: 500,
    /** A required-update grace of more than 90 days is a typo, not a policy. */
    gracePeriodHoursMax: 90 * 24,
    /** A signed policy stays trusted this long offline: a long weekend without signal, short enough that a lifted block does not linger. */
    signedTtlSeconds: 72 * 60 * 60,
    /** Shared caches may serve the policy this long: a new revision reaches every client within five minutes. */
    cacheSeconds: 300,
  },
  /** Product analytics (worker/growth/analytics/): the ingestion batch and the bounds of property values. */
  analytics: {
    /** Envelopes per POST /api/analytics/events (up to 100; more is a 413). */
    batchMax: 100,
    /** The only envelope schema version (interface spec, Versioning). */
    schemaVersion: 1,
    /** Counts and token numbers: far above any real turn or session. */
    countMax: 10_000_000,
    /** A day: no session, prompt or latency lasts longer. */
    durationMsMax: 24 * 60 * 60 * 1000,
    versionMax: 64,
    identifierMax: 64,
    /** anonymousId, appVersion and the attribution fields of the envelope. */
    envelopeFieldMax: 200,
    /** How far past the server's clock an occurredAt may lie: device clocks drift, a day does not. */
    futureSkewMaxMs: 24 * 60 * 60 * 1000,
    /** How old an occurredAt may be: longer than any offline queue is kept, and past every dashboard window but a year. */
    occurredAgeMaxMs: 90 * 24 * 60 * 60 * 1000,
    /** Keys of a quarantined event's properties kept for diagnosis (values are never kept). */
    quarantineKeysMax: 50,
  },
  /** Experiments (worker/growth/experiments/; docs/experiments.md). */
  experiments: {
    /** Experiment and variant keys: lower snake case, short enough to read in a dashboard. */
    keyMax: 48,
    /** Control plus at least one treatment; more than five arms splits traffic too thin to read. */
    variantsMin: 2,
    variantsMax: 5,
    descriptionMax: 500,
    /** Experiments an admin list returns: far above the handful running at once. */
    listMax: 200,
    /** A unit converts with a meaningful action within this long after its first exposure. */
    conversionWindowMs: 7 * 24 * 60 * 60 * 1000,
  },
  /** The analytics dashboard (worker/growth/dashboard/): how far back one request may reach. */
  analyticsDashboard: {
    /** Rolling seven-day windows (WPR) and weekly signup cohorts (retention): default and a year at most. */
    weeksDefault: 8,
    weeksMax: 52,
    /** Days of events the data-quality share covers. */
    qualityDaysDefault: 7,
    qualityDaysMax: 90,
    /** The data-quality target: share of authenticated mobile events carrying every envelope field. */
    qualityTarget: 0.98,
  },
  /** Push notifications (worker/notifications/push/; the interface spec, Push notifications and Limits). */
  push: {
    /** Messages per request to the push service (interface spec: Push send chunk). */
    sendChunk: 100,
    /** Ticket ids per getReceipts request (Expo's own cap). */
    receiptsBatch: 1000,
    /** Delivery-log rows per database write: each write stays short on the dev database (devdb), whose cost grows per row. */
    logWriteBatch: 250,
    /** Send requests in flight at once: a Worker holds at most six outgoing connections. */
    sendConcurrency: 6,
    /** Receipt batches one receipts run reads: 50,000 tickets a quarter hour, far above today's sends. */
    receiptBatchesPerRun: 50,
    titleMax: 30,
    bodyMax: 80,
    /** Receipts are read this long after the send: Expo keeps them ready within about 30 minutes (interface spec). */
    receiptDelayMs: 30 * 60 * 1000,
    /** Dead tokens are purged this long after deadAt (interface spec: 30 days). */
    deadTokenRetentionSeconds: 30 * 24 * 60 * 60,
    /** Attempts per request on 429 and 5xx, backing off from retryBaseMs; a cron run stays well inside its time. */
    sendAttempts: 4,
    retryBaseMs: 200,
    /** Longest Retry-After honoured within a run; beyond it the chunk fails and the next run's work picks up. */
    retryAfterMaxMs: 5000,
    /** Expo tokens are about 40 characters; web push endpoints are URLs. */
    tokenMax: 2048,
    fieldMax: 100,
    /** The admin test push's body (cut to bodyMax when sent). */
    testBodyMax: 500,
    /** After an in-app decline the soft ask is repeated no sooner than this (interface spec: 7 days). */
    softAskRepeatDays: 7,
    /** A soft-ask time the client reports may run this far ahead of our clock (phone clocks drift); beyond it, a 400. */
    softAskClockSkewMs: 60_000,
  },
  /** Web push (RFC 8030/8291/8292; worker/notifications/push/web-push.ts). */
  webPush: {
    /** Interface spec: a message is worth delivering for a minute, a reminder for a day. */
    messagesTtlSeconds: 60,
    remindersTtlSeconds: 86_400,
    /** Every push service must accept an encrypted body of 4,096 bytes (RFC 8030 §7.2). */
    maxBodyBytes: 4096,
    /** VAPID JWT lifetime (RFC 8292 allows at most 24 hours); a token is reused until this much of it is left. */
    jwtLifetimeSeconds: 12 * 60 * 60,
    jwtRenewBeforeSeconds: 60 * 60,
    /** Web pushes in flight at once: one request each, and a Worker holds at most six outgoing connections. */
    sendConcurrency: 6,
    /** Characters of a send error's text kept (the runtime's, never a push service's body): a log line, not a page. */
    reasonMax: 120,
  },
  /** Trick reminders (worker/riding/reminders/; interface spec, Limits). */
  reminders: {
    /** Planning horizon of PUT /api/users/me/reminder-cadence/:listId (interface spec: 30 days ahead). */
    planningHorizonDays: 30,
    /** GET /api/users/me/scheduled-notifications?within=: default and most days ahead (interface spec: 14). */
    localSchedulingDaysDefault: 14,
    localSchedulingDaysMax: 14,
    /** Rows one local-scheduling read returns: iOS keeps only an app's 64 soonest pending local notifications. */
    localSchedulingRowsMax: 64,
    /** A list not opened for this many days has its cadence set to off (interface spec). */
    autoPauseDays: 60,
    /** Due rows one reminder run claims and sends at a time: ~50 push requests of 100 and a handful of queries. */
    runBatchRows: 5_000,
    /** Due rows one run handles at most, so a run ends well inside the Cron Trigger's 15-minute wall time. */
    runMaxRows: 100_000,
    /** A claimed row stays leased this long: longer than any run, so two overlapping runs never hold one row. */
    leaseMinutes: 20,
    /** A row skipped for quiet hours or missing tokens is tried again this much later (not every 5 minutes). */
    retryDelayMinutes: 60,
    /** A pending row this long overdue is cancelled as expired: a day-old reminder is noise. */
    expiryHours: 24,
  },
  /** Event change notifications and subscription digests (worker/events/changes/, worker/events/subscriptions/, worker/events/notifications/). */
  eventNotifications: {
    /** Subscriptions one rider may hold: a handful of saved filters, each matched against every new event. */
    subscriptionsPerUser: 20,
    /** Values per list filter (sports, disciplines, …) of one subscription. */
    filterValuesMax: 10,
    /** One discipline, event kind or subscription name. */
    textMax: 80,
    /** Radius of a subscription's place: a region's worth of travel; bounds the geo cells it is indexed under. */
    radiusKmMin: 1,
    radiusKmMax: 500,
    /** One digest per subscription per rolling window. */
    digestWindowHours: 24,
    /** Newly published events one digest names at most (the newest); the rest wait for the next one. */
    digestEventsMax: 50,
    /** Jobs one run claims and sends at a time: ~20 push requests of 100. */
    runBatchJobs: 2_000,
    /** Jobs one run handles at most, well inside the Cron Trigger's 15-minute wall time. */
    runMaxJobs: 50_000,
    /** A claimed job stays leased this long: longer than any run, so two overlapping runs never hold one job. */
    leaseMinutes: 20,
    /** A job skipped for quiet hours or missing tokens is tried again this much later. */
    retryDelayMinutes: 60,
    /** A change notification this long undelivered is dropped: stale news about an event is noise. */
    expiryHours: 48,
    /** Recipients read per query when fanning a change out to savers, relationships and subscribers. */
    fanOutBatch: 1_000,
  },
  /** Opt-in sessions (docs/sessions.md); each duration has a setting of the same meaning in worker/accounts/sessions/settings.ts. */
  /** A rider's copy of their data (docs/data-export.md, worker/accounts/exports/). */
  dataExports: {
    /** A ready file is kept this long, then the cleanup deletes it: long enough to find time to download it. */
    keepDays: 7,
    /** A download link works this long: enough to start the download, too short to be worth passing around. */
    linkMinutes: 15,
    /**
     * A build's lease: longer than the 15 minutes a Cron Trigger may run, so a live build is never claimed twice,
     * and a build whose Worker died is claimed again soon after.
     */
    leaseMinutes: 20,
    /** Builds tried before the export is `failed`: a passing fault (a database or R2 hiccup) clears in one or two. */
    attempts: 3,
    /** The wait before the second attempt, doubled for each one after: faults that last a while get time to clear. */
    retryAfterMinutes: 5,
    /**
     * Builds one cron run makes: one, so a large rider's build has the run's whole wall time; runs a minute apart
     * overlap, so exports still build side by side.
     */
    buildsPerRun: 1,
    /** Expired files one cleanup run deletes. */
    cleanupBatch: 100,
    /** `GET /api/users/me/exports` answers this many, newest first: one a day, so two weeks. */
    listMax: 14,
  },
  sessions: {
    /** Access token lifetime: the interface spec's target "an expiry such as one hour". ACCESS_TOKEN_TTL_S. */
    accessTokenTtlS: 3600,
    /**
     * Sessions revoked on their own an account remembers until their access tokens expire; more within one
     * access-token lifetime end every token of the account instead (worker/accounts/sessions/service.ts).
     */
    revokedSessionsMax: 50,
    /** A session lives this long past its last refresh. REFRESH_TOKEN_TTL_DAYS. */
    refreshTokenTtlDays: 60,
    /** A spent refresh token retried this soon gets the same successor (a lost response). REFRESH_GRACE_S. */
    refreshGraceS: 10,
    /** Refresh tokens carry 256 random bits (32 bytes); the family id 128. */
    tokenBytes: 32,
    familyBytes: 16,
    /** The device label kept from `user-agent`. */
    deviceMax: 200,
    /** A refresh token as a client sends it; generous over the ~66 characters we issue. */
    refreshTokenMax: 200,
    /** `GET /api/admin/legacy-token-usage` reads this many days at most. */
    legacyUsageDaysMax: 90,
    /** Legacy-token requests an isolate counts in memory before writing them (worker/platform/tokens/legacy-usage.ts). */
    legacyUsageFlushEvery: 100,
    /** ...or this long after the first of them, at the latest. LEGACY_USAGE_FLUSH_MS. */
    legacyUsageFlushMs: 1000,
    /**
     * Tokens an isolate remembers as verified (worker/platform/tokens/verified-tokens.ts), so a rider's next request
     * costs no signature check, key id hash or claims parse: a few hundred bytes each, the least recently used dropped.
     */
    verifiedTokensMax: 1000,
    /** ...each for at most this long; the signing secrets are checked on every hit, and `exp` too. */
    verifiedTokenTtlMs: 600_000,
  },
  /** A rider's suspension (worker/accounts/suspension/): the reason is read by the rider on their account screen. */
  suspension: { reasonMax: 500 },
} as const;
