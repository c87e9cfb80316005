// The import layers of worker/, checked by `npm run lint`. Imports run one way:
//   app.ts / index.ts → resources (routes, services) → middleware → session → db, http → config, env, limits
// A lower layer never imports a higher one, nothing imports in a circle, and among the
// resources users/ and analytics/ sit below sign-in/ and spot-lists/ (which build on accounts).
const RESOURCES = '(users|sign-in|spot-lists|health|analytics|openapi)';

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
      from: { path: '^worker/(env|config|limits|version)\\.ts$' },
      to: { path: '^worker/', pathNot: '^worker/(env|config|limits|version)\\.ts$' },
    },
    {
      name: 'db-and-http-below-session',
      severity: 'error',
      from: { path: '^worker/(db|http)/' },
      to: { path: `^worker/(session|middleware|${RESOURCES})/|^worker/(app|app-env|index)\\.ts$` },
    },
    {
      name: 'session-below-middleware',
      severity: 'error',
      from: { path: '^worker/session/' },
      to: { path: `^worker/(middleware|${RESOURCES})/|^worker/(app|app-env|index)\\.ts$` },
    },
    {
      name: 'middleware-below-resources',
      severity: 'error',
      comment: 'A check that needs a resource query takes it as an option or lives in that resource.',
      from: { path: '^worker/middleware/' },
      to: { path: `^worker/${RESOURCES}/|^worker/(app|app-env|index)\\.ts$` },
    },
    {
      name: 'resources-below-app',
      severity: 'error',
      from: { path: `^worker/${RESOURCES}/|^worker/app-env\\.ts$` },
      to: { path: '^worker/(app|index)\\.ts$' },
    },
    {
      name: 'accounts-below-what-builds-on-them',
      severity: 'error',
      comment: 'users/ and analytics/ never import the resources that use them.',
      from: { path: '^worker/(users|analytics)/' },
      to: { path: '^worker/(sign-in|spot-lists|health|openapi)/' },
    },
    {
      name: 'analytics-imports-no-resource',
      severity: 'error',
      from: { path: '^worker/analytics/' },
      to: { path: `^worker/${RESOURCES}/`, pathNot: '^worker/analytics/' },
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
