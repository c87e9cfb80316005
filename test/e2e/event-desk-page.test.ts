import { type Db, MongoClient, ObjectId } from 'mongodb';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventDedupeKey, eventSlug } from '../../worker/events/catalog/identity';
import { policyOf, watchPolicyViolations } from '../support/page-policy-watch';
import { type RealtimeStack, startRealtimeStack } from '../support/realtime-stack';

// The events desk page in a real headless browser (Debian's chromium), against the Worker
// under `wrangler dev`, as production serves it: sign in, then the queue, duplicates and stale lists and their actions.

const DAY_MS = 24 * 60 * 60 * 1000;
let stack: RealtimeStack;
let browser: Browser;
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
  stack = await startRealtimeStack();
  const { body } = await stack.api('/users', { body: { name: 'Desk admin', ...admin } });
  const client = new MongoClient(stack.databaseUri);
  try {
    const db: Db = client.db();
    await db.collection('users').updateOne({ _id: new ObjectId(body.user._id) }, { $set: { role: 'admin' } });
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
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

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
  const page = await browser.newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const violations = await watchPolicyViolations(page);
  expect(policyOf(await page.goto(`${stack.url}/admin/events`))).toContain("default-src 'self'");
  await page.fill('input[name=email]', admin.email);
  await page.fill('input[name=password]', admin.password);
  await page.click('button[type=submit]');
  await page.waitForSelector('body[data-state=loaded]', { timeout: 15_000 });

  // The three lists and the sources, as the API answers them.
  expect(await page.textContent(`#queue tr[data-id="${submittedId}"]`)).toContain('Community Pump Track Race');
  expect(await page.textContent(`#duplicates tr[data-id="${ids.duplicate.toHexString()}"]`)).toContain(
    'Leeds Dirt Jam',
  );
  expect(await page.textContent(`#stale tr[data-id="${ids.stale.toHexString()}"]`)).toContain('Forgotten Park Session');
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
