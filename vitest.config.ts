import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig, defineProject } from 'vitest/config';
import { keepConsoleLine } from './test/support/console-filter';
import StacksFirst from './test/support/sequencer';

// The driver is pre-bundled for workerd; Node built-ins stay imports that nodejs_compat
// serves, except `process`, which is aliased to the shim below.
const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)].filter(
  (name) => name !== 'process' && name !== 'node:process',
);

// A fresh version-policy signing key per run: tests verify with the JWKS the Worker serves, never a fixed key.
const policySigningKey = JSON.stringify(
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
);

const processShim = fileURLToPath(new URL('./test/support/process-shim.cjs', import.meta.url));

// wrangler.toml's Text rules load the pages' vendored libraries as text (worker/platform/http/chart-library.ts,
// worker/platform/api-description/renderer-source.js); the pool's Vite does not read [[rules]], so this plugin does the same for the tests.
const TEXT_MODULES = ['/chart.umd.min.js', '/swagger-ui-dist/swagger-ui-bundle.js', '/swagger-ui-dist/swagger-ui.css'];
const vendoredAsText = {
  name: 'vendored-as-text',
  enforce: 'pre' as const,
  load(id: string) {
    const file = id.split('?')[0]!;
    // No source map: a map of one long string is as large as the string, sent to every runtime for nothing.
    return TEXT_MODULES.some((ending) => file.endsWith(ending))
      ? { code: `export default ${JSON.stringify(readFileSync(file, 'utf8'))};`, map: { mappings: '' } }
      : undefined;
  },
};

/**
 * Dependencies go to workerd without source maps. Every runtime fetches each module over the pool's socket, and
 * the inline maps of node_modules were three quarters of those bytes (23 of 30 MB per runtime); a stack trace
 * through a dependency loses its original columns, our own sources keep theirs. Loaded here, not left to Vite,
 * because Vite would read each package's own .map file; transformed with an empty map for the rest.
 */
const DEPENDENCY = /\/node_modules\/.*\.[cm]?js$/;
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;
const noDependencySourceMaps = {
  name: 'no-dependency-source-maps',
  enforce: 'pre' as const,
  load(id: string) {
    const file = id.split('?')[0]!;
    if (!DEPENDENCY.test(file) || TEXT_MODULES.some((ending) => file.endsWith(ending))) return undefined;
    return { code: readFileSync(file, 'utf8').replace(SOURCE_MAP_COMMENT, '\n'), map: { mappings: '' } };
  },
  transform(code: string, id: string) {
    return DEPENDENCY.test(id.split('?')[0]!) ? { code, map: { mappings: '' } } : undefined;
  },
};

/**
 * Files that need a runtime of their own: they drive a named Durable Object through its storage and sockets
 * (runInDurableObject on shard 0), which other files' sockets would share in a common runtime.
 */
const OWN_RUNTIME = ['test/worker/platform/realtime-wakeup.test.ts'];

/** Files that start the Worker in workerd and reach it over TCP (test/support/realtime-stack.ts). */
const STACK_FILES = ['test/realtime/**/*.test.ts', 'test/e2e/pages.test.ts'];

/** A project whose files run inside workerd with the Worker and its bindings. */
function workerProject(
  name: string,
  include: string[],
  { isolate, exclude = [] }: { isolate: boolean; exclude?: string[] },
) {
  return defineProject({
    plugins: [
      vendoredAsText,
      noDependencySourceMaps,
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // LOCAL ONLY: the metrics stand-in /admin/ops reads where no real METRICS is bound (durable-objects/metrics-stand-in.ts).
          durableObjects: { METRICS_STAND_IN: 'MetricsStandIn' },
          bindings: {
            MONGODB_URI: inject('mongoUri'),
            JWT_SECRET: 'test-only-secret-not-used-anywhere-else',
            REFRESH_TOKEN_SECRET: 'test-only-refresh-token-secret',
            PAYMENT_WEBHOOK_SECRET: 'test-only-payment-webhook-secret',
            POLICY_SIGNING_KEY: policySigningKey,
            GOOGLE_CLIENT_IDS:
              'web-client.apps.googleusercontent.com,ios-client.apps.googleusercontent.com,android-client.apps.googleusercontent.com',
            APPLE_CLIENT_IDS: 'com.example.rider',
            GOOGLE_JWKS_URL: `${inject('standInsUrl')}/jwks/google`,
            APPLE_JWKS_URL: `${inject('standInsUrl')}/jwks/apple`,
            STAND_INS_URL: inject('standInsUrl'),
            SPARE_MONGODB_URI: inject('spareMongoUri'),
            SPARE_DEVDB_CONTROL: inject('spareDevDbControl'),
            // Tests pick their own pair of sources under /event-sources/<name>/ (test/support/stand-ins/event-sources.ts).
            EVENT_SOURCE_ONE_URL: `${inject('standInsUrl')}/event-sources/default/one`,
            EVENT_SOURCE_TWO_URL: `${inject('standInsUrl')}/event-sources/default/two`,
            // Push tests take an Expo stand-in of their own under /expo-push/<name> (test/support/expo-push-stand-in.ts).
            EXPO_PUSH_URL: `${inject('standInsUrl')}/expo-push/default`,
            // Web push subscriptions point at the local push-service stand-in (test/support/web-push-stand-in.ts).
            WEB_PUSH_LOCAL_ENDPOINTS: 'allow',
            // Tests choose each request's address with cf-connecting-ip, as Cloudflare's edge would set it;
            // test/worker/accounts/client-address.test.ts sets the other sources.
            CLIENT_ADDRESS_SOURCE: 'cf-connecting-ip',
            // Test files register their riders from one address (none given), far past the hourly defaults;
            // test/worker/accounts/registration-limit.test.ts unsets both to test the defaults.
            REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000000',
            REGISTRATIONS_PER_HOUR: '1000000',
            // Rider searches from one address too (none given); test/worker/social/rider-connections.test.ts sets it low.
            RIDER_SEARCHES_PER_ADDRESS_PER_MINUTE: '1000000',
            // Each request waits for its background work here, so legacy-token counts are written at once.
            LEGACY_USAGE_FLUSH_MS: '1',
          },
        },
      })),
    ],
    resolve: { alias: { process: processShim, 'node:process': processShim } },
    test: {
      name,
      include,
      exclude,
      isolate,
      globalSetup: ['./test/support/global-setup.ts'],
      testTimeout: 20_000,
      deps: {
        // The driver's document sequence module too, in the same pre-bundle: the driver must see the very class it
        // checks for (durable-objects/encoded-documents.ts), not a second copy. obscenity's ES entry re-exports its
        // CommonJS build, which workerd's module loader leaves undefined until pre-bundled.
        optimizer: {
          ssr: {
            enabled: true,
            include: ['mongodb', 'mongodb/lib/cmap/commands', 'obscenity'],
            rolldownOptions: { external: nodeBuiltins },
          },
        },
      },
    },
  });
}

export default defineConfig({
  test: {
    // The Worker's per-request info lines stay out of the output, so what a test did not expect stands out.
    onConsoleLog: keepConsoleLine,
    // Files mostly wait on the dev database, workerd and the local stacks they start: five at a time kept two
    // cores busiest (full suite 244 s of vitest with 5, 252 s with 4, 275 s with 3, measured on an idle machine).
    maxWorkers: 5,
    sequence: { sequencer: StacksFirst },
    projects: [
      // Test files share a workerd runtime and the Worker's loaded modules: loading the Worker afresh for each
      // file cost ~13 s of import per file, more than most files' tests. Each file still works in a database
      // of its own (test/support/worker-api.ts); Durable Objects are shared, hence OWN_RUNTIME.
      workerProject('worker', ['test/worker/**/*.test.ts'], { isolate: false, exclude: OWN_RUNTIME }),
      workerProject('worker-own-runtime', OWN_RUNTIME, { isolate: true }),
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'devdb/test/**/*.test.ts',
            'test/node/**/*.test.ts',
            'test/e2e/**/*.test.ts',
            'voice-node/test/**/*.test.ts',
          ],
          exclude: STACK_FILES,
          // No file mocks modules or changes the environment, so a test process keeps what it loaded (the driver,
          // the dev database, the Worker's sources) for the next file instead of importing it all again.
          isolate: false,
          testTimeout: 30_000,
        },
      },
      // Files that serve the Worker over TCP to real clients, each on a stack of its own, from one bundle per run.
      {
        test: {
          name: 'stacks',
          environment: 'node',
          include: STACK_FILES,
          globalSetup: ['./test/support/stack-build-setup.ts'],
          // Each file's stack is its own; the modules they load (Miniflare above all, seconds of CPU to import) are
          // loaded once per test process instead of once per file.
          isolate: false,
          testTimeout: 30_000,
        },
      },
    ],
  },
});
