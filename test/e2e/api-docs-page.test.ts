import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { policyOf, watchPolicyViolations } from '../support/page-policy-watch';
import { type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// The API reference page (GET /api/docs) in a real headless browser against the Worker under `wrangler dev`:
// it renders every route from /api/openapi.json under the page policy, with nothing refused.

let stack: RealtimeStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startRealtimeStack();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it('renders the routes of the API description, styled, with nothing refused by its policy', async () => {
  const page = await browser.newPage();
  const violations = await watchPolicyViolations(page);
  expect(policyOf(await page.goto(`${stack.url}/api/docs`))).toContain("default-src 'self'");
  await page.waitForSelector('#root details summary code');
  const paths = await page.locator('#root details summary code').allTextContents();
  expect(paths).toContain('/api/docs');
  expect(paths).toContain('/voice/ws');
  // The stylesheet applied: the method badges are bold, as only /api/docs/styles.css makes them.
  expect(
    await page
      .locator('#root .m')
      .first()
      .evaluate((el) => (globalThis as any).getComputedStyle(el).fontWeight),
  ).toBe('700');
  expect(await violations()).toEqual([]);
}, 60_000);
