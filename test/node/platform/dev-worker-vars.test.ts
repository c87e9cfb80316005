import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCAL_STACK_SETTINGS, varArguments, WORKER_SETTINGS, workerVars } from '../../../scripts/dev-worker-vars';

const stack = { MONGODB_URI: 'mongodb://127.0.0.1:27018/rider', WEB_PUSH_LOCAL_ENDPOINTS: 'allow' };

/** The setting names of the README's configuration table (a row may name several). */
function readmeSettings(): string[] {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const table = readme.split('## Configuration')[1]!.split('\n## ')[0]!;
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!));
}

describe('the Worker vars npm run dev passes', () => {
  it('passes a secret given in the environment (it then wins over .dev.vars)', () => {
    expect(workerVars({ PAYMENT_WEBHOOK_SECRET: 'from-env' }, stack)).toMatchObject({
      PAYMENT_WEBHOOK_SECRET: 'from-env',
    });
  });

  it("lets the environment win over the stack's own values, and ignores empty or unknown names", () => {
    const vars = workerVars({ WEB_PUSH_LOCAL_ENDPOINTS: 'off', MONGODB_URI: '', PATH: '/usr/bin' }, stack);
    expect(vars).toEqual({ ...stack, WEB_PUSH_LOCAL_ENDPOINTS: 'off' });
  });

  it('accepts every Worker setting of the README configuration table from the environment', () => {
    const settings = readmeSettings();
    expect(settings.length).toBeGreaterThan(40);
    const local: readonly string[] = LOCAL_STACK_SETTINGS;
    const workerSettings = settings.filter((name) => !local.includes(name));
    const env = Object.fromEntries(workerSettings.map((name) => [name, `env-${name}`]));
    expect(workerVars(env, {})).toEqual(env);
    // Every name the stack knows is documented in the table.
    expect([...WORKER_SETTINGS, ...LOCAL_STACK_SETTINGS].filter((name) => !settings.includes(name))).toEqual([]);
  });

  it('keeps a value with colons whole (wrangler splits --var at the first colon)', () => {
    expect(varArguments({ MONGODB_URI: 'mongodb://a:1/b' })).toEqual(['--var', 'MONGODB_URI:mongodb://a:1/b']);
  });
});
