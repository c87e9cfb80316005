import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { type OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { servedApiDocument } from '../../support/served-api-document';

const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

// A client written against the generated types, as an app team would: by operationId, for three routes.
const CLIENT = `
import type { operations } from './api';

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Op<Id extends keyof operations> = operations[Id];

export async function me(token: string): Promise<Json<Op<'getApiUsersMe'>['responses'][200]>> {
  const res = await fetch('/api/users/me', { headers: { 'x-auth-token': token } });
  return res.json();
}

export async function register(body: Json<Op<'postApiUsers'>['requestBody']>) {
  const res = await fetch('/api/users', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as Json<Op<'postApiUsers'>['responses'][201]>;
}

export async function resetShard(token: string, path: Op<'postApiAdminSocketShardsByIndexReset'>['parameters']['path']) {
  const res = await fetch(\`/api/admin/socket-shards/\${path.index}/reset\`, { method: 'POST', headers: { 'x-auth-token': token } });
  return (await res.json()) as Json<Op<'postApiAdminSocketShardsByIndexReset'>['responses'][200]>;
}

export async function use(token: string) {
  const email: string = (await me(token)).email;
  const session = await register({ name: 'Kim', email, password: 'password123' });
  const sessionToken: string = session.token;
  const closed: number = (await resetShard(sessionToken, { index: 0 })).closed;
  // @ts-expect-error a path parameter is always sent and never null
  await resetShard(sessionToken, { index: null });
  // @ts-expect-error nor left out
  await resetShard(sessionToken, {});
  return closed;
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'es2022',
    moduleResolution: 'bundler',
    lib: ['es2022', 'dom'],
    types: [],
  },
  files: ['api.d.ts', 'client.ts'],
};

describe('types generated from the served API document', () => {
  it('type-check a client that calls three routes by operationId', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rider-api-client-'));
    try {
      writeFileSync(join(dir, 'api.d.ts'), await openapiTS(await servedApiDocument<OpenAPI3>()));
      writeFileSync(join(dir, 'client.ts'), CLIENT);
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
      const run = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', timeout: 60_000 });
      expect(`${run.stdout}${run.stderr}`).toBe('');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
