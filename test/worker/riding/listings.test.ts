import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register } from '../../support/accounts';
import { createList as createSpotList } from '../../support/spot-lists';
import { addTrick, as, createList as createTrickList } from '../../support/trick-lists';
import { createApi } from '../../support/worker-api';

const api = createApi('listings');

describeAccessChecks(api, [{ method: 'GET', path: '/api/listings', check: 'auth' }]);

describe('GET /api/listings', () => {
  it("answers the caller's trick lists and spot lists with their counts, and nobody else's", async () => {
    const [rider, other] = [await register(api), await register(api)];
    const street = await createTrickList(api, rider, { name: 'Street', sport: 'skateboarding' });
    await createTrickList(api, rider, { name: 'Park', sport: 'bmx' });
    await addTrick(api, rider, street._id, { name: 'Kickflip' });
    await addTrick(api, rider, street._id, { name: 'Heelflip' });
    const parks = await createSpotList(api, rider, 'Parks');
    await createTrickList(api, other, { name: 'Not mine', sport: 'snowboarding' });
    await createSpotList(api, other, 'Not mine either');

    const res = await api.fetch('/api/listings', { headers: as(rider) });
    expect(res.status).toBe(200);
    const body = await res.json<any>();
    expect(body.counts).toEqual({ tricklists: 2, spotlists: 1 });
    expect(body.tricklists.map((list: any) => [list.name, list.trickCount])).toEqual([
      ['Park', 0],
      ['Street', 2],
    ]);
    expect(body.spotlists).toEqual([expect.objectContaining({ _id: parks._id, name: 'Parks', spotCount: 0 })]);
  });

  it('answers empty lists and zero counts for a new rider', async () => {
    const rider = await register(api);
    const body = await (await api.fetch('/api/listings', { headers: as(rider) })).json();
    expect(body).toEqual({ tricklists: [], spotlists: [], counts: { tricklists: 0, spotlists: 0 } });
  });
});
