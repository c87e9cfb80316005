// The import layers of worker/, checked by `npm run lint`. Imports run one way:
//   app.ts / index.ts → resources (routes, services) → middleware → session → db, http → config, env, limits
// A lower layer never imports a higher one, nothing imports in a circle, and among the
// resources users/ and analytics/ sit below the ones that build on accounts.
// The folders below every resource.
const BELOW_RESOURCES = 'middleware|session|db|http';
const BASE = '^worker/(env|config|limits|version|setting-error)\\.ts$';

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
      name: 'base-imports-nothing-above',
      severity: 'error',
      comment: 'env, config, limits and version are the bottom layer.',
      from: { path: BASE },
      to: { path: '^worker/', pathNot: BASE },
    },
    // The lower layers are allow-lists, so a resource folder added later is above them without naming it here.
    {
      name: 'db-and-http-below-session',
      severity: 'error',
      from: { path: '^worker/(db|http)/' },
      to: { path: '^worker/', pathNot: `^worker/(db|http)/|${BASE}` },
    },
    {
      name: 'session-below-middleware',
      severity: 'error',
      from: { path: '^worker/session/' },
      to: { path: '^worker/', pathNot: `^worker/(session|db|http)/|${BASE}` },
    },
    {
      name: 'middleware-below-resources',
      severity: 'error',
      comment: 'A check that needs a resource query takes it as an option or lives in that resource.',
      from: { path: '^worker/middleware/' },
      to: { path: '^worker/', pathNot: `^worker/(middleware|session|db|http)/|${BASE}` },
    },
    {
      name: 'nothing-imports-the-app',
      severity: 'error',
      from: { path: '^worker/', pathNot: '^worker/index\\.ts$' },
      to: { path: '^worker/(app|index)\\.ts$' },
    },
    {
      name: 'accounts-below-what-builds-on-them',
      severity: 'error',
      comment: 'users/ imports no other resource but analytics/; the resources that build on accounts import users/.',
      from: { path: '^worker/users/' },
      to: { path: '^worker/', pathNot: `^worker/(users|analytics|${BELOW_RESOURCES})/|${BASE}|^worker/app-env\\.ts$` },
    },
    {
      name: 'analytics-imports-no-resource',
      severity: 'error',
      from: { path: '^worker/analytics/' },
      to: { path: '^worker/', pathNot: `^worker/(analytics|${BELOW_RESOURCES})/|${BASE}|^worker/app-env\\.ts$` },
    },
    {
      name: 'durable-objects-below-worker',
      severity: 'error',
      from: { path: '^durable-objects/' },
      to: { path: '^worker/', pathNot: '^worker/(env|config|limits)\\.ts$' },
    },
  ],
  options: {
    // TypeScript 7 ships no compiler API, so dependency-cruiser parses with swc.
    parser: 'swc',
    // Type-only imports count: a type import from a higher layer is still a wrong-way edge.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|test)/' },
  },
};
