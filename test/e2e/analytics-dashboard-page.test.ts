import { MongoClient, ObjectId } from 'mongodb';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DAY, seedEvents, seedRider } from '../support/analytics-seed';
import { policyOf, watchPolicyViolations } from '../support/page-policy-watch';
import { type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// The dashboard page in a real headless browser (Debian's chromium, installed by scripts/setup.mjs), against the
// Worker under `wrangler dev`: the same bundle, Text rule included, that production serves.

let stack: RealtimeStack;
let browser: Browser;
const admin = { email: `admin-${crypto.randomUUID().slice(0, 6)}@example.test`, password: 'dashboard-password' };

beforeAll(async () => {
  stack = await startRealtimeStack();
  const { body } = await stack.api('/users', { body: { name: 'Admin', ...admin } });
  const client = new MongoClient(stack.databaseUri);
  try {
    const db = client.db();
    await db.collection('users').updateOne({ _id: new ObjectId(body.user._id) }, { $set: { role: 'admin' } });
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * DAY);
    const riders = [await seedRider(db, ago(40)), await seedRider(db, ago(30)), await seedRider(db, ago(20))];
    await seedEvents(db, [
      { name: 'trick_added', at: ago(1), userId: riders[0] },
      { name: 'trick_landed', at: ago(2), userId: riders[0] },
      { name: 'spot_saved', at: ago(3), userId: riders[1] },
      { name: 'post_created', at: ago(9), userId: riders[1] },
      { name: 'ai_response_completed', at: ago(10), userId: riders[2], properties: { substantive: true } },
      { name: 'event_saved', at: ago(18), userId: riders[2] },
      { name: 'trick_added', at: ago(27), userId: riders[1] },
      // The actions above are the API's own copies (platform server). Of the four mobile events received
      // this week only the last carries the whole envelope: 25.0%.
      { name: 'spot_viewed', at: ago(1), userId: riders[0], platform: 'ios' },
      { name: 'trick_viewed', at: ago(2), userId: riders[1], platform: 'android' },
      { name: 'app_opened', at: ago(3), userId: riders[2], platform: 'ios' },
      {
        name: 'app_opened',
        at: ago(1),
        userId: riders[0],
        envelope: { appVersion: '1.2.0', buildNumber: 7, sessionId: crypto.randomUUID(), anonymousId: 'install-1' },
      },
    ]);
  } finally {
    await client.close();
  }
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

it('signs an admin in on the page and draws every chart from the API figures, loading nothing from elsewhere', async () => {
  const page = await browser.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const violations = await watchPolicyViolations(page);
  expect(policyOf(await page.goto(`${stack.url}/admin/analytics`))).toContain("default-src 'self'");
  await page.fill('input[name=email]', admin.email);
  await page.fill('input[name=password]', admin.password);
  await page.click('button[type=submit]');
  await page.waitForSelector('body[data-state=drawn]', { timeout: 15_000 });

  const login = await stack.api('/auth', { body: admin });
  const token = login.body.token as string;
  const figures = async (path: string) => (await stack.api(`/analytics/dashboard/${path}`, { token })).body;
  const [wpr, retention] = [await figures('wpr'), await figures('retention')];
  expect(wpr.windows.some((w: { riders: number }) => w.riders > 0)).toBe(true);

  const chart = (id: string) =>
    page.evaluate((canvasId) => {
      const drawn = (globalThis as any).Chart.getChart(canvasId);
      return drawn.data.datasets.map((set: { data: unknown[] }) => set.data);
    }, id);
  expect(await chart('wpr-chart')).toEqual([wpr.windows.map((w: any) => w.riders)]);
  expect(await chart('depth-chart')).toEqual([wpr.windows.map((w: any) => w.depth)]);
  expect(await chart('domains-chart')).toEqual(
    ['progression', 'discovery', 'coaching', 'community'].map((d) => wpr.windows.map((w: any) => w.domains[d].riders)),
  );
  expect(await chart('retention-chart')).toEqual(
    ['w1', 'w2', 'w3', 'w4'].map((w) => retention.cohorts.map((c: any) => (c[w] ? c[w].share * 100 : null))),
  );
  expect(await page.textContent('#quality')).toBe('25.0% of 4 (target 98.0%)');

  // Drawn, not just configured: every chart's canvas has painted pixels.
  const painted = await page.evaluate(() =>
    ['wpr-chart', 'depth-chart', 'domains-chart', 'retention-chart'].map((id) => {
      const canvas = (globalThis as any).document.getElementById(id);
      const pixels: Uint8ClampedArray = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let count = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) count += 1;
      return count;
    }),
  );
  for (const count of painted) expect(count).toBeGreaterThan(100);

  // The token stays in session storage, never in a URL; nothing came from a CDN.
  expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('rider-analytics-token'))).toMatch(/^ey/);
  expect(requested.every((url) => url.startsWith(stack.url) && !url.includes(token))).toBe(true);
  expect(requested).toContain(`${stack.url}/admin/analytics/chart.umd.min.js`);
  // Under the page's Content-Security-Policy nothing was refused: no inline script or style is left.
  expect(await violations()).toEqual([]);
}, 60_000);
