import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { DEFAULT_DATABASE, databaseName } from '../../../worker/platform/db/database-name';

const configPath = new URL('../../../wrangler.toml', import.meta.url).pathname;
const production = unstable_readConfig({ config: configPath }, { hideWarnings: true });
const staging = unstable_readConfig({ config: configPath, env: 'staging' }, { hideWarnings: true });
const deployDoc = readFileSync(new URL('../../../docs/deploy.md', import.meta.url), 'utf8');

/** Every secret the Worker reads (worker/platform/env.ts); each must be put per environment, never written in wrangler.toml. */
const SECRETS = [
  'MONGODB_URI',
  'JWT_SECRET',
  'JWT_SECRET_PREVIOUS',
  'REFRESH_TOKEN_SECRET',
  'PAYMENT_WEBHOOK_SECRET',
  'POLICY_SIGNING_KEY',
  'OPENAI_API_KEY',
];

const vars = (config: typeof production) => config.vars as Record<string, string>;
const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const sorted = (items: string[]) => [...items].sort();

describe('staging is isolated from production (wrangler.toml [env.staging])', () => {
  it('has its own Worker name, so its secrets live in their own store', () => {
    expect(staging.name).toBe('rider-service-staging');
    expect(staging.name).not.toBe(production.name);
  });

  it('never resolves to the production database', () => {
    const stagingDb = databaseName(undefined, vars(staging).MONGODB_DB);
    expect(stagingDb).not.toBe(databaseName(undefined, vars(production).MONGODB_DB));
    expect(stagingDb).not.toBe(DEFAULT_DATABASE);
  });

  it('writes no secret into either environment; each is put per environment, as docs/deploy.md lists', () => {
    for (const config of [production, staging]) {
      for (const secret of SECRETS) expect(Object.keys(vars(config))).not.toContain(secret);
    }
    for (const secret of SECRETS) expect(deployDoc).toContain(`wrangler secret put ${secret} --env staging`);
  });

  it('shares no identity-provider client id or callback origin with production', () => {
    for (const name of ['GOOGLE_CLIENT_IDS', 'APPLE_CLIENT_IDS']) {
      const shared = list(vars(staging)[name]).filter((id) => list(vars(production)[name]).includes(id));
      expect(shared, name).toEqual([]);
      expect(list(vars(staging)[name]).length, name).toBeGreaterThan(0);
    }
    expect(vars(staging).PUBLIC_ORIGIN).toBeTruthy();
    expect(vars(staging).PUBLIC_ORIGIN).not.toBe(vars(production).PUBLIC_ORIGIN);
  });

  it('repeats what environments do not inherit: Durable Objects, crons, containers and the other vars', () => {
    const bindings = (config: typeof production) =>
      sorted(
        config.durable_objects.bindings.map(
          (binding: { name: string; class_name: string }) => `${binding.name}:${binding.class_name}`,
        ),
      );
    expect(bindings(staging)).toEqual(bindings(production));
    expect(staging.triggers.crons).toEqual(production.triggers.crons);
    expect(sorted((staging.containers ?? []).map((container: { class_name: string }) => container.class_name))).toEqual(
      sorted((production.containers ?? []).map((container: { class_name: string }) => container.class_name)),
    );
    expect(sorted(Object.keys(vars(staging)))).toEqual(expect.arrayContaining(sorted(Object.keys(vars(production)))));
  });
});
