import type { Env } from '../env';
import { MissingSettingError } from '../setting-error';

/**
 * Where the client's address is read from, `CLIENT_ADDRESS_SOURCE` (docs/deploy.md). Only a header that something in
 * front of the Worker sets, and overwrites when a client sends it, can be trusted; workerd hands a Worker no socket
 * address (Miniflare copies the socket's into cf-connecting-ip only when the client sent none), so there is no
 * `socket` source and `none` puts every client in one bucket.
 */
const SOURCES = {
  // Cloudflare's edge sets it and drops any copy a client sends.
  'cf-connecting-ip': (request: Request) => request.headers.get('cf-connecting-ip')?.trim(),
  // A trusted proxy appends the address it saw; entries to its left are whatever the client wrote.
  'x-forwarded-for': (request: Request) => request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim(),
  // A trusted proxy (nginx's `proxy_set_header X-Real-IP`) replaces it.
  'x-real-ip': (request: Request) => request.headers.get('x-real-ip')?.trim(),
  // No trusted address: every client counts in one bucket, kept apart from requests merely missing their header.
  none: () => 'all-clients',
} as const;

type ClientAddressSource = keyof typeof SOURCES;

// Requests whose address cannot be known share one count, so a missing header never means an unlimited client.
const SHARED_BUCKET = 'unknown';

/** The configured source; unset means Cloudflare's edge, where the service is deployed (wrangler.toml). */
function clientAddressSource(env: Env): ClientAddressSource {
  const value = env.CLIENT_ADDRESS_SOURCE?.trim().toLowerCase() || 'cf-connecting-ip';
  if (value in SOURCES) return value as ClientAddressSource;
  throw new MissingSettingError(
    'CLIENT_ADDRESS_SOURCE',
    `must be one of ${Object.keys(SOURCES)
      .map((name) => `"${name}"`)
      .join(', ')}, not "${env.CLIENT_ADDRESS_SOURCE}"`,
  );
}

/** The address the per-client limits count a request under (registration, sign-in, password checks, rider search). */
export function clientAddress(env: Env, request: Request): string {
  return SOURCES[clientAddressSource(env)](request) || SHARED_BUCKET;
}
