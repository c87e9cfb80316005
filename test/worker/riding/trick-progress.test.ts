import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { register } from '../../support/accounts';
import { as, riderWithTrick as riderWithTrickOf, storedTrick as storedTrickOf } from '../../support/trick-lists';
import { createApi } from '../../support/worker-api';

// Progression on a trick: attempts counted atomically, a landing recorded once.
const api = createApi('trick-progress');
const riderWithTrick = () => riderWithTrickOf(api);
const storedTrick = (id: string) => storedTrickOf(api, id);

describe('logging attempts', () => {
  it('counts one attempt and moves a todo trick to learning', async () => {
    const { rider, path } = await riderWithTrick();
    const res = await api.fetch(`${path}/attempts`, { method: 'POST', headers: as(rider) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ attempts: 1, status: 'learning', completed: false });
  });

  it('keeps a landed trick landed while counting', async () => {
    const { rider, path } = await riderWithTrick();
    await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) });
    const res = await api.fetch(`${path}/attempts`, { method: 'POST', headers: as(rider) });
    expect(await res.json()).toMatchObject({ attempts: 1, status: 'landed', completed: true });
  });

  it('counts 20 parallel attempts exactly', async () => {
    const { rider, path, trick } = await riderWithTrick();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.fetch(`${path}/attempts`, { method: 'POST', headers: as(rider) })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect((await storedTrick(trick._id))!.attempts).toBe(20);
  });

  it("answers 404 for another rider's trick and counts nothing", async () => {
    const { trick, path } = await riderWithTrick();
    const res = await api.fetch(`${path}/attempts`, { method: 'POST', headers: as(await register(api)) });
    expect(res.status).toBe(404);
    expect(await storedTrick(trick._id)).toMatchObject({ attempts: 0, status: 'todo' });
  });
});

describe('landing', () => {
  it('lands the trick: status landed, completed, landedAt set', async () => {
    const { rider, path } = await riderWithTrick();
    const res = await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) });
    expect(res.status).toBe(200);
    const landed = await res.json<any>();
    expect(landed).toMatchObject({ status: 'landed', completed: true, landedAt: expect.any(String) });
  });

  it('does not land twice: the second answers 200 with the unchanged trick', async () => {
    const { rider, path } = await riderWithTrick();
    const first = await (await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) })).json<any>();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) });
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(first);
  });

  it('10 parallel landings leave one landedAt', async () => {
    const { rider, path, trick } = await riderWithTrick();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.fetch(`${path}/land`, { method: 'POST', headers: as(rider) })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    const landedAts = new Set(await Promise.all(answers.map(async (res) => (await res.json<any>()).landedAt)));
    const stored = await storedTrick(trick._id);
    expect([...landedAts]).toEqual([stored!.landedAt.toISOString()]);
  });

  it("answers 404 for another rider's trick and lands nothing", async () => {
    const { trick, path } = await riderWithTrick();
    const res = await api.fetch(`${path}/land`, { method: 'POST', headers: as(await register(api)) });
    expect(res.status).toBe(404);
    expect(await storedTrick(trick._id)).toMatchObject({ status: 'todo', completed: false, landedAt: null });
  });
});

// One line per route; the other trick routes' lines are in test/worker/riding/tricks.test.ts.
describeAccessChecks(api, [
  { method: 'POST', path: '/api/tricklists/:listId/tricks/:trickId/attempts', check: 'auth' },
  { method: 'POST', path: '/api/tricklists/:listId/tricks/:trickId/land', check: 'auth' },
]);
