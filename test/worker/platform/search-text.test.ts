import { beforeAll, describe, expect, it } from 'vitest';
import { register, registerAdmin, type TestAccount } from '../../support/accounts';
import { createSpot } from '../../support/spots';
import { createApi } from '../../support/worker-api';

const api = createApi('search-text');

let admin: TestAccount;
beforeAll(async () => {
  admin = await registerAdmin(api);
});

const BBOX = 'bbox=-180,-90,180,90';

// Every free-text parameter a search or filter route reads from its query string.
const TEXT_PARAMS: { path: string; param: string; admin?: boolean }[] = [
  { path: '/api/spots', param: 'q' },
  { path: '/api/stays/search', param: 'q' },
  { path: '/api/stays/search', param: 'city' },
  { path: '/api/stays/search', param: 'country' },
  { path: '/api/trickipedia', param: 'q' },
  { path: '/api/blog', param: 'q' },
  { path: '/api/blog', param: 'tag' },
  { path: '/api/events', param: 'q' },
  { path: '/api/events', param: 'location' },
  { path: '/api/events/calendar.ics', param: 'q' },
  { path: '/api/events/calendar.ics', param: 'location' },
  { path: `/api/events/map-pins?${BBOX}`, param: 'q' },
  { path: `/api/events/map-pins?${BBOX}`, param: 'location' },
  { path: '/api/admin/users', param: 'q', admin: true },
];

const get = (path: string, param: string, value: string, asAdmin?: boolean) =>
  api.fetch(`${path}${path.includes('?') ? '&' : '?'}${param}=${value}`, {
    headers: asAdmin ? { 'x-auth-token': admin.token } : {},
  });

describe('free text in a query string', () => {
  it.each(TEXT_PARAMS)('$path refuses a NUL in $param with a 400 naming it', async ({ path, param, admin }) => {
    const res = await get(path, param, 'kick%00flip', admin);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Invalid query string.',
      details: [{ field: param, message: 'must not contain control characters' }],
    });
  });

  it.each(TEXT_PARAMS)('$path still answers a plain $param', async ({ path, param, admin }) => {
    const res = await get(path, param, 'kick%20flip', admin);
    expect(res.status).toBe(200);
  });

  it.each(['%01', '%09', '%0A', '%0D', '%1B', '%1F', '%7F', '%C2%85'])(
    'refuses the control character %s',
    async (char) => {
      const res = await get('/api/spots', 'q', `a${char}b`);
      expect(res.status).toBe(400);
      expect((await res.json<any>()).details).toEqual([{ field: 'q', message: 'must not contain control characters' }]);
    },
  );

  it('finds text beyond ASCII, trimmed of surrounding spaces', async () => {
    const rider = await register(api);
    const name = `Málaga 北京 🛹 ${crypto.randomUUID().slice(0, 8)}`;
    const spot = await createSpot(api, rider, { name });
    const res = await get('/api/spots', 'q', encodeURIComponent(`  ${name}  `));
    expect((await res.json<any>()).items.map((s: any) => s._id)).toEqual([spot._id]);
  });
});
