import { describe, expect, it } from 'vitest';
import golden from '../fixtures/events-live-pin.json';
import { call } from '../support/content';
import { liveFixture, PINNED_PATHS } from '../support/events-fixture';
import { createApi } from '../support/worker-api';

// Existing clients see exactly what they saw before the target model (issue 16): the Live list's
// fields, values, offset cursor and page size, and the detail, pinned on a fixed set of records.

const api = createApi('events-live-pin');

async function answers(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of [...PINNED_PATHS, `/api/events/${liveFixture()[0]!.slug}`]) {
    const res = await call(api, 'GET', path);
    out[path] = { status: res.status, body: await res.json() };
  }
  return out;
}

describe('the Live list and detail, pinned', () => {
  it('answer the recorded responses on the fixture set (page size 20, offset cursor "20")', async () => {
    await api.db((db) => db.collection('events').insertMany(liveFixture()));
    const got = await answers();
    if (Object.keys(golden).length === 0) console.log(`PIN_GOLDEN${JSON.stringify(got)}PIN_GOLDEN`);
    expect(got).toEqual(golden);
  });
});
