import { expect } from 'vitest';
import type { TestAccount } from './accounts';
import type { Api } from './worker-api';

export const BERLIN = { lat: 52.52, lng: 13.405 };

export const spotBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Mellowpark',
  sports: ['skateboarding', 'bmx'],
  location: BERLIN,
  city: 'Berlin',
  country: 'de',
  ...overrides,
});

/** Creates a spot through the API and expects it to be created. */
export async function createSpot(api: Api, account: TestAccount, overrides: Record<string, unknown> = {}) {
  const res = await api.fetch('/api/spots', {
    method: 'POST',
    headers: { 'x-auth-token': account.token },
    json: spotBody(overrides),
  });
  expect(res.status).toBe(201);
  return res.json<any>();
}

/** Great-circle km on mongod's 6378100 m sphere, computed independently of the service. */
export function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6378.1 * Math.asin(Math.sqrt(h));
}
