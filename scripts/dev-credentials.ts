// Demo-account passwords kept per database, so a run against another database never
// replaces the ones printed for the local dev database.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { uriHosts } from '../worker/platform/db/database-name';
import type { SeedCredentials } from './seed';

/** Passwords by database: `devdb/<name>` for the local dev database, `<hosts>/<name>` for others. */
export type CredentialsBook = Record<string, SeedCredentials>;

export function credentialsKey(externalUri: string | undefined, dbName: string): string {
  // The local dev database is keyed by name only: its port may change, its folder holds this file.
  return externalUri ? `${uriHosts(externalUri)}/${dbName}` : `devdb/${dbName}`;
}

function isCredentials(value: unknown): value is SeedCredentials {
  const v = value as SeedCredentials | undefined;
  return typeof v?.admin?.password === 'string' && typeof v?.rider?.password === 'string';
}

/** Reads a book; a file from before books (one bare pair) is taken as the local `rider` database's. */
export function parseBook(text: string | undefined): CredentialsBook {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
  if (isCredentials(parsed)) return { 'devdb/rider': parsed };
  const book: CredentialsBook = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (isCredentials(value)) book[key] = value;
  }
  return book;
}

export function readBook(file: string): CredentialsBook {
  try {
    return parseBook(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

export function saveCredentials(file: string, key: string, credentials: SeedCredentials): void {
  const book = { ...readBook(file), [key]: credentials };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(book, null, 2), { mode: 0o600 });
}
