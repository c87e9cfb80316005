import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { policyOf, watchPolicyViolations } from '../support/page-policy-watch';
import { type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// The API reference page (GET /api/docs, Swagger UI bundled into the Worker) in a real headless browser against
// the Worker under `wrangler dev`: search, try-it and both token headers, all on this origin, nothing refused by its policy.

let stack: RealtimeStack;
let browser: Browser;
let docs: Awaited<ReturnType<typeof openDocs>>;

// One page for both tests: Swagger UI takes some 20 s of a loaded 2-core machine to resolve and draw the document.
beforeAll(async () => {
  stack = await startRealtimeStack();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  docs = await openDocs();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Opens the page, recording every request that leaves this origin (a CDN, a font, a validator badge). */
async function openDocs() {
  const page = await browser.newPage();
  const violations = await watchPolicyViolations(page);
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${stack.url}/`)) elsewhere.push(request.url());
  });
  expect(policyOf(await page.goto(`${stack.url}/api/docs`))).toContain("default-src 'self'");
  await page.waitForSelector('.opblock-summary-path', { timeout: 90_000 });
  return { page, violations, elsewhere };
}

/** The operation block of `method path`, expanded, with try-it on. */
async function tryOut(page: Page, method: string, path: string) {
  const block = page.locator(`.opblock-${method}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
  await block.locator('.opblock-summary').first().click();
  await block.locator('.try-out__btn').click();
  await block.locator('button.execute').click();
  return block.locator('.live-responses-table tbody .response-col_status').first();
}

it('finds an operation by search and runs it against this origin, with nothing from elsewhere and nothing refused', async () => {
  const { page, violations, elsewhere } = docs;
  await page.fill('.operation-filter-input', '/api/health');
  // The filter narrows the list (after its debounce) to the operations whose path holds the phrase.
  await expect
    .poll(async () => {
      const shown = await page.locator('.opblock-summary-path').allTextContents();
      return shown.includes('/api/health') && shown.every((path) => path.includes('/api/health'));
    })
    .toBe(true);

  const status = await tryOut(page, 'get', '/api/health');
  await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('200');
  expect(await page.locator('.live-responses-table tbody .response-col_description').first().textContent()).toContain(
    '"ok": true',
  );
  expect(elsewhere).toEqual([]);
  expect(await violations()).toEqual([]);
}, 60_000);

it('takes a token for each of the two headers, explained on the page, and sends it with try-it', async () => {
  const { page, violations, elsewhere } = docs;
  const intro = await page.locator('.docs-intro').textContent();
  expect(intro).toContain('x-auth-token');
  expect(intro).toContain('Authorization: Bearer');

  const { token } = await stack.rider('Docs reader');
  await page.click('.btn.authorize');
  const dialog = page.locator('.dialog-ux');
  expect(await dialog.locator('.auth-container h4').allTextContents()).toEqual(
    expect.arrayContaining([expect.stringContaining('x-auth-token'), expect.stringContaining('authorization-bearer')]),
  );
  const apiKey = dialog.locator('.auth-container', { has: page.locator('h4:has-text("x-auth-token")') });
  await apiKey.locator('input').fill(token);
  await apiKey.locator('button.authorize').click();
  await dialog.locator('button.close-modal').click();

  await page.fill('.operation-filter-input', '/api/users/me');
  const status = await tryOut(page, 'get', '/api/users/me');
  await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('200');
  expect(elsewhere).toEqual([]);
  expect(await violations()).toEqual([]);
}, 60_000);
