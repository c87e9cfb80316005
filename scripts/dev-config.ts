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

/** The ports and database the local stack uses; every one can be overridden from the environment. */
export function localStackConfig() {
  return {
    workerPort: Number(process.env.PORT ?? 8787),
    dbPort: Number(process.env.DB_PORT ?? 27018),
    dbName: process.env.MONGODB_DB ?? 'rider',
    dataDir: process.env.DEVDB_DATA ?? '.devdb-data',
    externalUri: process.env.MONGODB_URI || undefined,
  };
}
