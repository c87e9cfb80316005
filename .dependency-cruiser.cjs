// The import rules of worker/, checked by `npm run lint`.
//
// worker/ is the platform and nine domains. app.ts, index.ts, schedules.ts and data.ts compose them:
// they mount each domain's router, hand one domain the functions it needs of another, run the cron
// work, and gather every domain's collections, indexes and personal-data rules. Everything else lives in exactly one of:
//   platform/  what every domain stands on: settings, limits, the database, HTTP, tokens and
//              access checks, the real-time transport, retrieval, health, the API description.
//              It imports no domain.
//   domains    each may import the platform and the domains listed BEFORE it in DOMAINS, never
//              one after it, so no two domains can import each other, directly or round a circle.
//              Where an earlier domain's work needs a later one (a spot deletion that detaches the
//              feed's posts about it), the composition hands it the function.
// Inside the platform, imports run one way too:
//   middleware → tokens → db, http → the base files (env, config, limits, version, setting-error, sports, bounded-cache)
// And no two files import each other, directly or round a circle.
const DOMAINS = [
  'growth',
  'moderation',
  'accounts',
  'notifications',
  'billing',
  'riding',
  'social',
  'events',
  'companion',
];
const PLATFORM = '^worker/platform/';
const BASE = '^worker/platform/(env|config|limits|version|setting-error|sports|bounded-cache)\\.ts$';
const COMPOSITION = '^worker/(app|index|schedules|data)\\.ts$|^worker/[^/]+/router\\.ts$';

const domainRules = DOMAINS.map((domain, rank) => {
  const later = DOMAINS.slice(rank + 1);
  return {
    name: `${domain}-imports-no-later-domain`,
    severity: 'error',
    comment: `${domain}/ may import ${DOMAINS.slice(0, rank).join(', ') || 'no other domain'} and the platform; a need the other way is handed in where the app is composed.`,
    from: { path: `^worker/${domain}/` },
    to: { path: later.length > 0 ? `^worker/(${later.join('|')})/` : '^$' },
  };
}).filter((rule) => rule.to.path !== '^$');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-imports-no-domain',
      severity: 'error',
      comment: 'The platform is what the domains stand on; what it needs of a domain is handed to it.',
      from: { path: PLATFORM },
      to: { path: '^worker/', pathNot: PLATFORM },
    },
    ...domainRules,
    {
      name: 'every-file-is-the-platform-a-domain-or-the-composition',
      severity: 'error',
      comment: 'A new folder under worker/ is a domain only once DOMAINS above places it.',
      from: { path: '^worker/', pathNot: `${PLATFORM}|^worker/(${DOMAINS.join('|')})/|${COMPOSITION}` },
      to: {},
    },
    {
      name: 'nothing-imports-the-composition',
      severity: 'error',
      comment: 'The app, the cron entry and the domain routers are composed at the top, never imported below it.',
      from: { path: '^worker/', pathNot: COMPOSITION },
      to: { path: COMPOSITION },
    },
    {
      name: 'base-imports-nothing-above',
      severity: 'error',
      comment: 'env, config, limits, version and the sports are the bottom layer.',
      from: { path: BASE },
      to: { path: '^worker/', pathNot: BASE },
    },
    {
      name: 'ops-above-base-only',
      severity: 'error',
      comment: 'The logger and metrics writer sit just above the base, so every layer may log.',
      from: { path: '^worker/platform/ops/' },
      to: { path: '^worker/', pathNot: `^worker/platform/ops/|${BASE}` },
    },
    // The lower layers are allow-lists, so a platform folder added later is above them without naming it here.
    {
      name: 'db-and-http-below-tokens',
      severity: 'error',
      from: { path: '^worker/platform/(db|http)/' },
      to: { path: '^worker/', pathNot: `^worker/platform/(db|http|ops)/|${BASE}` },
    },
    {
      name: 'tokens-below-middleware',
      severity: 'error',
      from: { path: '^worker/platform/tokens/' },
      to: { path: '^worker/', pathNot: `^worker/platform/(tokens|db|http|ops)/|${BASE}` },
    },
    {
      name: 'middleware-below-the-rest',
      severity: 'error',
      comment: 'A check that needs a query of its own takes it as an option or lives where the query does.',
      from: { path: '^worker/platform/middleware/' },
      to: { path: '^worker/', pathNot: `^worker/platform/(middleware|tokens|db|http|ops)/|${BASE}` },
    },
    {
      name: 'durable-objects-below-worker',
      severity: 'error',
      from: { path: '^durable-objects/' },
      to: { path: '^worker/', pathNot: '^worker/platform/(env|config|limits|bytes)\\.ts$' },
    },
  ],
  options: {
    // TypeScript 7 ships no compiler API, so dependency-cruiser parses with swc.
    parser: 'swc',
    // Type-only imports count: a type import against the rules is still a wrong-way edge.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test)/' },
  },
};
