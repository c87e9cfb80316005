import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unstable_getDevCompatibilityDate, unstable_readConfig } from 'wrangler';

const DAY_MS = 24 * 60 * 60 * 1000;

// Production runs Cloudflare's current runtime; the tests and `npm run dev` run the installed workerd. The Worker's
// compatibility date keeps up with that workerd, so the tests see the behaviour riders are served with.
describe("wrangler.toml's compatibility date", () => {
  const config = unstable_readConfig({ config: fileURLToPath(new URL('../../../wrangler.toml', import.meta.url)) });
  const newest = unstable_getDevCompatibilityDate();

  it('is one the installed workerd supports', () => {
    expect(config.compatibility_date! <= newest).toBe(true);
  });

  it("is within a month of the installed workerd's newest date", () => {
    const behind = Date.parse(newest) - Date.parse(config.compatibility_date!);
    expect(behind).toBeLessThanOrEqual(31 * DAY_MS);
  });
});
