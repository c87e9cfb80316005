import { MissingSettingError } from '../setting-error';

/** The database used when neither the URI's path nor MONGODB_DB names one. */
export const DEFAULT_DATABASE = 'rider';

interface UriParts {
  /** `mongodb://` or `mongodb+srv://`, with any `user:password@`. */
  head: string;
  /** The host list, e.g. `h1:27017,h2:27017`. */
  hosts: string;
  /** The database in the path, still percent-encoded; '' when there is none. */
  path: string;
  /** `?options`, or ''. */
  query: string;
}

function splitUri(uri: string): UriParts {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(uri)?.[0] ?? '';
  const rest = uri.slice(scheme.length);
  // The authority ends at the first '/' or '?': userinfo must percent-encode both.
  const end = rest.search(/[/?]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const tail = end === -1 ? '' : rest.slice(end);
  const at = authority.lastIndexOf('@');
  const queryAt = tail.indexOf('?');
  const pathPart = queryAt === -1 ? tail : tail.slice(0, queryAt);
  return {
    head: scheme + authority.slice(0, at + 1),
    hosts: authority.slice(at + 1),
    path: pathPart.replace(/^\//, ''),
    query: queryAt === -1 ? '' : tail.slice(queryAt),
  };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// MongoDB's own databases: a URI path of `/admin` usually means "authenticate there", and
// storing the service's data in one of these would be wrong whichever setting named it.
const SYSTEM_DATABASES = new Set(['admin', 'local', 'config']);

/**
 * The one rule for which database the Worker and every script use: the URI's path, else
 * the configured name (MONGODB_DB), else `rider`. A system database is refused by name.
 */
export function databaseName(uri: string | undefined, configuredName: string | undefined): string {
  const fromUri = uri ? decode(splitUri(uri.trim()).path) : '';
  const name = fromUri || configuredName?.trim() || DEFAULT_DATABASE;
  if (SYSTEM_DATABASES.has(name)) {
    throw new MissingSettingError(
      fromUri ? 'MONGODB_URI' : 'MONGODB_DB',
      `names MongoDB's system database "${name}"; put the service's database there instead (with ?authSource=${name} if that is where the user is defined)`,
    );
  }
  return name;
}

/** The same connection string with `name` as its database (the path), options kept. */
export function withDatabase(uri: string, name: string): string {
  const { head, hosts, query } = splitUri(uri.trim());
  return `${head}${hosts}/${encodeURIComponent(name)}${query}`;
}

/** The server part of a connection string without credentials, e.g. `h1:27017,h2:27017`. */
export function uriHosts(uri: string): string {
  return splitUri(uri.trim()).hosts;
}
