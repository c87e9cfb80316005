import { type Db, MongoClient, ObjectId } from 'mongodb';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventDedupeKey, eventSlug } from '../../worker/events/catalog/identity';
import { DAY, seedEvents, seedRider } from '../support/analytics-seed';
import { policyOf, watchPolicyViolations } from '../support/page-policy-watch';
import { type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// The pages the Worker serves (the analytics dashboard, the operations page, the events desk, the moderation queue, the API reference) in a real headless
// browser (Debian's chromium, installed by scripts/setup.mjs) against the Worker under `wrangler dev`: the same
// bundle, Text rules included, that production serves. One stack and one browser for the five pages, since each
// start costs seconds of the machine; the pages run one after another, so no page's writes land amid another's checks.

let stack: RealtimeStack;
let browser: Browser;

beforeAll(async () => {
  stack = await startRealtimeStack({ build: inject('workerBuild') });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Registers an account with these credentials and makes it an admin, as only the database can. */
async function registerAdmin(name: string, credentials: { email: string; password: string }): Promise<void> {
  const { body } = await stack.api('/users', { body: { name, ...credentials } });
  const client = new MongoClient(stack.databaseUri);
  try {
    await client
      .db()
      .collection('users')
      .updateOne({ _id: new ObjectId(body.user._id) }, { $set: { role: 'admin' } });
  } finally {
    await client.close();
  }
}

/**
 * An admin signed in on an admin page through its own form, once the page's script says it is `ready`: the page,
 * every URL it requested, and the policy violations it met.
 */
async function signInOnPage(path: string, admin: { email: string; password: string }, ready: string) {
  const page = await browser.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const violations = await watchPolicyViolations(page);
  expect(policyOf(await page.goto(`${stack.url}${path}`))).toContain("default-src 'self'");
  await page.fill('input[name=email]', admin.email);
  await page.fill('input[name=password]', admin.password);
  await page.click('button[type=submit]');
  await page.waitForSelector(`body[data-state=${ready}]`, { timeout: 15_000 });
  return { page, requested, violations };
}

describe('the analytics dashboard (/admin/analytics)', () => {
  const admin = { email: `admin-${crypto.randomUUID().slice(0, 6)}@example.test`, password: 'dashboard-password' };

  beforeAll(async () => {
    await registerAdmin('Admin', admin);
    const client = new MongoClient(stack.databaseUri);
    try {
      const db = client.db();
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
  }, 90_000);

  it('signs an admin in on the page and draws every chart from the API figures, loading nothing from elsewhere', async () => {
    const { page, requested, violations } = await signInOnPage('/admin/analytics', admin, 'drawn');

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
      ['progression', 'discovery', 'coaching', 'community'].map((d) =>
        wpr.windows.map((w: any) => w.domains[d].riders),
      ),
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
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('rider-analytics-token'))).toMatch(
      /^ey/,
    );
    expect(requested.every((url) => url.startsWith(stack.url) && !url.includes(token))).toBe(true);
    expect(requested).toContain(`${stack.url}/admin/analytics/chart.umd.min.js`);
    // Under the page's Content-Security-Policy nothing was refused: no inline script or style is left.
    expect(await violations()).toEqual([]);
  }, 60_000);
});

describe('the operations page (/admin/ops)', () => {
  const admin = { email: `ops-${crypto.randomUUID().slice(0, 6)}@example.test`, password: 'ops-page-password' };

  beforeAll(async () => {
    await registerAdmin('Ops admin', admin);
    for (let i = 0; i < 3; i++) expect((await stack.api('/feed')).status).toBe(200);
    expect((await stack.api(`/feed/${new ObjectId().toHexString()}`)).status).toBe(404);
  }, 60_000);

  it("shows each route hit in the last hour with its figures from the stack's metrics stand-in, charts drawn, nothing refused", async () => {
    const { page, requested, violations } = await signInOnPage('/admin/ops', admin, 'drawn');

    expect(await page.textContent('#source')).toContain('LOCAL');
    const cells = (route: string) =>
      page.$$eval(`tr[data-route="${route}"] td`, (tds) => tds.map((td) => td.textContent ?? ''));
    const feed = await cells('GET /api/feed');
    expect(feed[0]).toBe('GET /api/feed');
    expect(Number(feed[1])).toBeGreaterThanOrEqual(3);
    expect(Number(feed[3])).toBeGreaterThanOrEqual(Number(feed[2]));
    const post = await cells('GET /api/feed/:postId');
    expect(Number(post[1])).toBeGreaterThanOrEqual(1);
    expect(post[5]).not.toBe('0.0%');

    const painted = await page.evaluate(() =>
      ['p95-chart', 'minute-chart'].map((id) => {
        const canvas = (globalThis as any).document.getElementById(id);
        const pixels: Uint8ClampedArray = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        let count = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) count += 1;
        return count;
      }),
    );
    for (const count of painted) expect(count).toBeGreaterThan(100);
    expect(requested.every((url) => url.startsWith(stack.url))).toBe(true);
    expect(requested).toContain(`${stack.url}/admin/ops/chart.umd.min.js`);
    expect(await violations()).toEqual([]);
  }, 60_000);
});

describe('the events desk (/admin/events)', () => {
  const DAY_MS = 24 * 60 * 60 * 1000;
  const admin = { email: `desk-${crypto.randomUUID().slice(0, 6)}@example.test`, password: 'desk-password' };
  let submittedId = '';
  const ids = { survivor: new ObjectId(), duplicate: new ObjectId(), stale: new ObjectId() };
  let duplicateSlug = '';

  function storedEvent(_id: ObjectId, title: string, fields: Record<string, unknown> = {}) {
    const startAt = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + 10 * DAY_MS + DAY_MS / 2);
    const dedupeKey = `${eventDedupeKey({ title, startAt, city: 'Leeds' })}|${_id.toHexString()}`;
    const now = new Date();
    return {
      _id,
      title,
      slug: eventSlug(title, dedupeKey),
      dedupeKey,
      sports: ['bmx'],
      startAt,
      endAt: null,
      status: 'scheduled',
      venue: { name: 'Hyde Park', city: 'Leeds', country: 'GB', lat: 53.81, lng: -1.56 },
      schemaVersion: 2,
      approvalStatus: 'approved',
      sourceRefs: [],
      relationshipCounts: { interested: 0, going: 0, competing: 0, watching_online: 0 },
      freshness: { lastVerifiedAt: now, staleAfter: new Date(now.getTime() + 14 * DAY_MS), changedAt: null },
      createdAt: now,
      updatedAt: now,
      ...fields,
    };
  }

  beforeAll(async () => {
    await registerAdmin('Desk admin', admin);
    const client = new MongoClient(stack.databaseUri);
    try {
      const db: Db = client.db();
      const duplicate = storedEvent(ids.duplicate, 'Leeds Dirt Jam 2031', { possibleDuplicateOf: [ids.survivor] });
      duplicateSlug = duplicate.slug;
      await db.collection('events').insertMany([
        storedEvent(ids.survivor, 'Leeds Dirt Jam'),
        duplicate,
        storedEvent(ids.stale, 'Forgotten Park Session', {
          freshness: {
            lastVerifiedAt: new Date(Date.now() - 30 * DAY_MS),
            staleAfter: new Date(Date.now() - 16 * DAY_MS),
            changedAt: null,
          },
        }),
      ]);
    } finally {
      await client.close();
    }
    const rider = await stack.rider('Submitter');
    const submitted = await stack.api('/events/submit', {
      token: rider.token,
      body: {
        title: 'Community Pump Track Race',
        sports: ['bmx'],
        startLocal: '2031-05-10T10:00',
        timezone: 'Europe/London',
        venue: { name: 'Pump Track', city: 'York', country: 'GB' },
      },
    });
    expect(submitted.status).toBe(201);
    submittedId = submitted.body._id;
  }, 90_000);

  /** Clicks an action and waits for the page's reload after it (the page counts its loads), then for no error. */
  async function act(page: Page, selector: string) {
    const loads = Number(await page.getAttribute('body', 'data-loads'));
    await page.click(selector);
    await page.waitForFunction((before) => Number((globalThis as any).document.body.dataset.loads) > before, loads, {
      timeout: 15_000,
    });
    expect(await page.textContent('#error')).toBe('');
  }

  it('signs an admin in, then approves from the queue, merges a duplicate and clears a stale event, loading nothing from elsewhere', async () => {
    const { page, requested, violations } = await signInOnPage('/admin/events', admin, 'loaded');

    // The three lists and the sources, as the API answers them.
    expect(await page.textContent(`#queue tr[data-id="${submittedId}"]`)).toContain('Community Pump Track Race');
    expect(await page.textContent(`#duplicates tr[data-id="${ids.duplicate.toHexString()}"]`)).toContain(
      'Leeds Dirt Jam',
    );
    expect(await page.textContent(`#stale tr[data-id="${ids.stale.toHexString()}"]`)).toContain(
      'Forgotten Park Session',
    );
    expect(await page.textContent('#stale-count')).toBe('1');
    expect(await page.locator('#sources tr').count()).toBeGreaterThanOrEqual(2);

    // Approve: off the queue, and public.
    expect((await stack.api(`/events/${submittedId}`)).status).toBe(404);
    await act(page, `#queue tr[data-id="${submittedId}"] button[data-action=approve]`);
    expect(await page.locator(`#queue tr[data-id="${submittedId}"]`).count()).toBe(0);
    expect((await stack.api(`/events/${submittedId}`)).status).toBe(200);

    // Merge: off the duplicates list; the old slug answers the survivor.
    await act(page, `#duplicates tr[data-id="${ids.duplicate.toHexString()}"] button[data-action=merge]`);
    expect(await page.locator(`#duplicates tr[data-id="${ids.duplicate.toHexString()}"]`).count()).toBe(0);
    const old = await stack.api(`/events/${duplicateSlug}`);
    expect(old.status).toBe(200);
    expect(old.body._id).toBe(ids.survivor.toHexString());

    // Still right: off the stale list.
    await act(page, `#stale tr[data-id="${ids.stale.toHexString()}"] button[data-action=verify]`);
    expect(await page.locator(`#stale tr[data-id="${ids.stale.toHexString()}"]`).count()).toBe(0);
    expect(await page.textContent('#stale-count')).toBe('0');
    expect(await page.textContent('#error')).toBe('');

    // The token stays in session storage, never in a URL; nothing came from elsewhere.
    const token = await page.evaluate(() => (globalThis as any).sessionStorage.getItem('rider-events-desk-token'));
    expect(token).toMatch(/^ey/);
    expect(requested.every((url) => url.startsWith(stack.url) && !url.includes(token))).toBe(true);
    // Under the page's Content-Security-Policy nothing was refused: no inline script or style is left.
    expect(await violations()).toEqual([]);
  }, 60_000);
});

describe('the moderation queue (/admin/moderation)', () => {
  const admin = { email: `mod-${crypto.randomUUID().slice(0, 6)}@example.test`, password: 'queue-password' };
  let adminToken = '';
  let author = { id: '', token: '' };
  const posts = { reported: '', once: '', earlier: '' };
  let reporter = '';

  const newPost = async (text: string) => {
    const res = await stack.api('/feed', { token: author.token, body: { text } });
    expect(res.status).toBe(201);
    return res.body._id as string;
  };
  const reportPost = async (postId: string, token: string) =>
    expect(
      (await stack.api('/reports', { token, body: { targetType: 'post', targetId: postId, reason: 'spam' } })).status,
    ).toBe(201);

  beforeAll(async () => {
    await registerAdmin('Queue admin', admin);
    adminToken = (await stack.api('/auth', { body: admin })).body.token;
    author = await stack.rider('Reported author');
    const riders = [await stack.rider('One'), await stack.rider('Two'), await stack.rider('Three')];
    reporter = riders[0]!.token;
    posts.earlier = await newPost('An earlier spam post');
    posts.reported = await newPost('Buy followers cheap');
    posts.once = await newPost('A sketchy landing');
    await reportPost(posts.earlier, riders[0]!.token);
    const earlier = await stack.api(`/admin/moderation/queue/post/${posts.earlier}/decision`, {
      token: adminToken,
      body: { action: 'remove', reason: 'Spam, first warning.' },
    });
    expect(earlier.status).toBe(200);
    for (const rider of riders) await reportPost(posts.reported, rider.token);
    await reportPost(posts.once, riders[0]!.token);
  }, 90_000);

  /** Fills the row's reason, clicks an action and waits for the page's reload after it (the page counts its loads). */
  async function decide(page: Page, postId: string, action: 'remove' | 'dismiss' | 'suspend', reason: string) {
    const row = `#items tr[data-target="post:${postId}"]`;
    await page.fill(`${row} input[name=reason]`, reason);
    const loads = Number(await page.getAttribute('body', 'data-loads'));
    await page.click(`${row} button[data-action=${action}]`);
    await page.waitForFunction((before) => Number((globalThis as any).document.body.dataset.loads) > before, loads, {
      timeout: 15_000,
    });
    expect(await page.textContent('#error')).toBe('');
  }

  it("lists the items with their content and the author's history, then removes one and dismisses another, nothing refused", async () => {
    const { page, requested, violations } = await signInOnPage('/admin/moderation', admin, 'loaded');
    const rows = () => page.$$eval('#items tr', (trs) => trs.map((tr) => (tr as any).dataset.target as string));
    // Three riders before one: the withheld post comes first.
    expect(await rows()).toEqual([`post:${posts.reported}`, `post:${posts.once}`]);
    const first = `#items tr[data-target="post:${posts.reported}"]`;
    expect(await page.textContent(first)).toContain('Buy followers cheap');
    expect(await page.textContent(`${first} .counts`)).toBe('3 rider(s), 3 report(s)');
    expect(await page.textContent(first)).toContain('Hidden from others (reports)');
    expect(await page.textContent(`${first} .history`)).toContain('content.remove: Spam, first warning.');
    expect(await page.textContent('#open-items')).toBe('2');
    expect(await page.textContent('#oldest-age')).toMatch(/h$/);
    expect(await page.textContent('#answered-share')).toBe('100.0%');

    await decide(page, posts.reported, 'remove', 'Selling followers is spam.');
    expect(await rows()).toEqual([`post:${posts.once}`]);
    expect((await stack.api(`/feed/${posts.reported}`)).status).toBe(404);

    await decide(page, posts.once, 'dismiss', 'A real trick, not spam.');
    expect(await page.textContent('#items')).toContain('Nothing to decide.');
    expect((await stack.api(`/feed/${posts.once}`)).status).toBe(200);
    expect(await page.textContent('#open-items')).toBe('0');

    const removals = await stack.api('/users/me/moderation', { token: author.token });
    expect(removals.body.items.map((item: { reason: string }) => item.reason)).toEqual([
      'Selling followers is spam.',
      'Spam, first warning.',
    ]);
    // A new report of the same author's post: suspend the author from its row, for the 7 days the page offers first.
    const again = await newPost('Followers, cheap, again');
    await reportPost(again, reporter);
    await page.reload();
    await page.waitForSelector('body[data-state=loaded]', { timeout: 15_000 });
    await decide(page, again, 'suspend', 'Selling followers, twice.');
    const account = await stack.api('/users/me', { token: author.token });
    expect(account.body.suspension).toMatchObject({ reason: 'Selling followers, twice.', until: expect.any(String) });
    expect((await stack.api('/feed', { token: author.token, body: { text: 'back' } })).status).toBe(403);

    const token = await page.evaluate(() => (globalThis as any).sessionStorage.getItem('rider-moderation-token'));
    expect(requested.every((url) => url.startsWith(stack.url) && !url.includes(token))).toBe(true);
    expect(await violations()).toEqual([]);
  }, 90_000);
});

describe('the API reference (/api/docs, Swagger UI bundled into the Worker)', () => {
  let docs: Awaited<ReturnType<typeof openDocs>>;

  // One page for both tests: Swagger UI takes some 20 s of a loaded 2-core machine to resolve and draw the document.
  beforeAll(async () => {
    docs = await openDocs();
  }, 120_000);

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
    const block = page.locator(`.opblock-${method}`, {
      has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
    });
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
      expect.arrayContaining([
        expect.stringContaining('x-auth-token'),
        expect.stringContaining('authorization-bearer'),
      ]),
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
});
