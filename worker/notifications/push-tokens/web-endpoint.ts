import { MissingSettingError } from '../../platform/setting-error';

// Which web push endpoints the Worker will ever POST to: checked when a subscription is registered and again
// before every send, since the endpoint is a URL the rider's browser (or anyone with a token) hands us.

/**
 * The browsers' push services, where real subscriptions live (WEB_PUSH_HOSTS replaces the list). `*.` takes
 * any subdomain: Windows hands out per-region hosts such as wns2-par02p.notify.windows.com, and Apple
 * documents *.push.apple.com for Safari's web.push.apple.com.
 */
export const DEFAULT_WEB_PUSH_HOSTS = [
  // Chrome, Edge on Android, Opera, Samsung Internet, Brave: Firebase Cloud Messaging.
  'fcm.googleapis.com',
  // Firefox: Mozilla's autopush.
  'updates.push.services.mozilla.com',
  // Edge on Windows: the Windows Push Notification Services.
  '*.notify.windows.com',
  // Safari on macOS and iOS.
  '*.push.apple.com',
] as const;

/** What the sender and the registration route check an endpoint against. */
export interface WebEndpointRules {
  /** Host names, or `*.` and a domain for any of its subdomains; lowercase. */
  hosts: readonly string[];
  /** `WEB_PUSH_LOCAL_ENDPOINTS=allow`: http endpoints on this machine, for a local push-service stand-in. */
  allowLocal: boolean;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether a URL's host is an IP address. The URL parser already rewrote every IPv4 form (2130706433, 0x7f.1,
 * 0177.0.0.1, 127.1) to dotted decimal and bracketed IPv6; a host whose last label is a number is an
 * IPv4 address to it, so that test covers any form it might let through.
 */
export function isIpLiteral(hostname: string): boolean {
  if (hostname.startsWith('[') || hostname.includes(':')) return true;
  const last = hostname.replace(/\.$/, '').split('.').pop() ?? '';
  return /^(0x[0-9a-f]*|[0-9]+)$/i.test(last);
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Why a WEB_PUSH_HOSTS entry is unusable, or null: a DNS name of two labels or more, optionally `*.`-prefixed. */
export function hostPatternProblem(pattern: string): string | null {
  const name = pattern.startsWith('*.') ? pattern.slice(2) : pattern;
  const labels = name.split('.');
  if (labels.length < 2 || !labels.every((label) => HOST_LABEL.test(label)))
    return `"${pattern}" is not a host name (letters, digits and -, two labels or more, optionally *. first)`;
  if (isIpLiteral(name)) return `"${pattern}" is an IP address; only push services' host names are allowed`;
  return null;
}

/** WEB_PUSH_HOSTS as a list, the defaults when unset; an unusable entry throws MissingSettingError naming it. */
export function parseWebPushHosts(setting: string | undefined): readonly string[] {
  if (!setting?.trim()) return DEFAULT_WEB_PUSH_HOSTS;
  const hosts = setting
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  if (!hosts.length) throw new MissingSettingError('WEB_PUSH_HOSTS', 'lists nothing');
  for (const host of hosts) {
    const problem = hostPatternProblem(host);
    if (problem) throw new MissingSettingError('WEB_PUSH_HOSTS', problem);
  }
  return hosts;
}

/** Whether `hostname` is one of the hosts, or under a `*.` one (a strict subdomain, never the domain itself). */
export function isListedHost(hostname: string, hosts: readonly string[]): boolean {
  return hosts.some((host) => (host.startsWith('*.') ? hostname.endsWith(host.slice(1)) : hostname === host));
}

/** An http endpoint on this machine: a local push-service stand-in (development and tests only). */
function isLocalEndpoint(url: URL): boolean {
  return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
}

/**
 * What can be told of an endpoint without this deployment's host list: why it is no https URL naming a host
 * on the default port (or, where `allowLocal`, an http one on this machine), or null.
 */
export function endpointFormProblem(endpoint: string, allowLocal: boolean): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be the https endpoint URL of the push service';
  }
  if (allowLocal && isLocalEndpoint(url)) return null;
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (isIpLiteral(url.hostname)) return 'must name the push service by its host name, not an IP address';
  if (url.username || url.password || url.port) return 'must be a plain https URL: no port, user name or password';
  return null;
}

/**
 * Why the Worker must not send to `endpoint`, or null when it is a push service's: an https URL on a listed
 * host name, the default port, no user name or password (or, where allowed, http on this machine).
 */
export function webEndpointProblem(endpoint: string, rules: WebEndpointRules): string | null {
  const problem = endpointFormProblem(endpoint, rules.allowLocal);
  if (problem) return problem;
  const url = new URL(endpoint);
  if (rules.allowLocal && isLocalEndpoint(url)) return null;
  if (!isListedHost(url.hostname, rules.hosts)) return `must be at a browser push service (${rules.hosts.join(', ')})`;
  return null;
}

/** This deployment's rules: WEB_PUSH_HOSTS (or the defaults) and WEB_PUSH_LOCAL_ENDPOINTS. */
export function webEndpointRules(env: {
  WEB_PUSH_HOSTS?: string;
  WEB_PUSH_LOCAL_ENDPOINTS?: string;
}): WebEndpointRules {
  return {
    hosts: parseWebPushHosts(env.WEB_PUSH_HOSTS),
    allowLocal: env.WEB_PUSH_LOCAL_ENDPOINTS?.trim() === 'allow',
  };
}
