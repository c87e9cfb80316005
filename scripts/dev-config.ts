import { readFileSync } from 'node:fs';

/** Reads KEY=VALUE lines of .dev.vars (as wrangler does), for the Node-side scripts. */
export function readDevVars(path = new URL('../.dev.vars', import.meta.url)): Record<string, string> {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (match) vars[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
  }
  return vars;
}

/** The ports, folders and database the local stack uses; every one can be overridden from the environment. */
export function localStackConfig() {
  return {
    workerPort: Number(process.env.PORT ?? 8787),
    dbPort: Number(process.env.DB_PORT ?? 27018),
    /** The voice box (voice-node/); the Worker reaches it at VOICE_URL, which defaults to this port on loopback. */
    voicePort: Number(process.env.VOICE_PORT ?? 8788),
    voiceUrl: process.env.VOICE_URL || `http://127.0.0.1:${Number(process.env.VOICE_PORT ?? 8788)}`,
    /** Used only when the URI names no database (worker/platform/db/database-name.ts). */
    configuredDbName: process.env.MONGODB_DB || undefined,
    dataDir: process.env.DEVDB_DATA || '.devdb-data',
    /** wrangler's local storage (the rate limiter's Durable Objects); tests pass a scratch folder. */
    wranglerState: process.env.WRANGLER_STATE || '.wrangler/state',
    externalUri: process.env.MONGODB_URI || undefined,
  };
}

export type LocalStackConfig = ReturnType<typeof localStackConfig>;
