import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servedApiDocument } from '../../support/served-api-document';

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

beforeAll(async () => {
  document = await servedApiDocument<Document>();
  dir = mkdtempSync(join(tmpdir(), 'rider-api-document-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
}, 30_000);
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
