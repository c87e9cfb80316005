import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedApiDocument } from '../../support/served-api-document';

// The document GET /api/openapi.json answers, checked by the tools client developers run on it: two strict
// validators, and a type generator whose output must type-check a small client. One file, so the Worker's sources are
// loaded into Node once for all of them.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Operation = { operationId?: string; security?: Record<string, string[]>[] };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

let document: Document;
let dir: string;
let file: string;

// Loading the Worker's sources into Node takes some 10 s of an idle machine and several times that of a loaded one.
beforeAll(async () => {
  document = await servedApiDocument<Document>();
  dir = mkdtempSync(join(tmpdir(), 'rider-api-document-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
  );

describe('the served API document', () => {
  it('passes swagger-parser validation', async () => {
    await expect(SwaggerParser.validate(file)).resolves.toBeTruthy();
  });

  it('has no error under redocly lint with the recommended rules (redocly.yaml)', () => {
    const run = spawnSync(
      process.execPath,
      ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format', 'json'],
      { cwd: root, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', CI: '1' }, timeout: 60_000 },
    );
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number };
      problems: { severity: string; ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const errors = report.problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('names every operation with a unique camelCase operationId', () => {
    const ids = operations().map(({ name, operation }) => [name, operation.operationId] as const);
    expect(ids.filter(([, id]) => !id || !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
  });

  it('declares every operation’s security, naming only the schemes the document registers', () => {
    const undeclared = operations().filter(({ operation }) => !Array.isArray(operation.security));
    expect(undeclared.map(({ name }) => name)).toEqual([]);
    const named = operations().flatMap(({ operation }) => (operation.security ?? []).flatMap(Object.keys));
    expect(new Set(named)).toEqual(new Set(Object.keys(document.components.securitySchemes)));
  });

  it('ends no path with a slash but the Socket.IO handshake, whose slash socket.io-client always sends', () => {
    expect(Object.keys(document.paths).filter((path) => path.endsWith('/'))).toEqual(['/socket.io/']);
  });
});

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
      writeFileSync(join(dir, 'api.d.ts'), await openapiTS(document as unknown as OpenAPI3));
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
