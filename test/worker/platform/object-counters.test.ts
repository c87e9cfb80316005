import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { registerAdmin } from '../../support/accounts';
import { createApi } from '../../support/worker-api';

// The Durable Objects' own load counters (durable-objects/object-counters.ts), read by the scale harness.
// Other test files share the shard and gateway objects, so their counts are checked as lower bounds;
// a fresh rider id's presence object is this file's alone, so its counts are exact.

const api = createApi('object-counters', { REALTIME_SHARDS: '2' });

describeAccessChecks(api, [
  { method: 'GET', path: '/api/admin/object-counters', check: 'admin' },
  { method: 'POST', path: '/api/admin/socket-shards/1/reset', check: 'admin' },
]);

const read = async (token: string, riders?: string[]) =>
  api.fetch(`/api/admin/object-counters${riders ? `?riders=${riders.join(',')}` : ''}`, {
    headers: { 'x-auth-token': token },
  });

describe('GET /api/admin/object-counters', () => {
  it('lists every shard and gateway, and counts a presence object exactly, not counting its own reads', async () => {
    const admin = await registerAdmin(api);
    const rider = new ObjectId().toHexString();
    const presence = api.env.RIDER_PRESENCE.get(api.env.RIDER_PRESENCE.idFromName(rider));
    await presence.attach('shard-x', 'socket-1');
    await presence.entry();
    const res = await read(admin.token, [rider]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.socketShards.map((shard: { name: string }) => shard.name)).toEqual(['shard-0', 'shard-1']);
    expect(body.dbGateways.map((gateway: { name: string }) => gateway.name)).toEqual(['db-gateway-0', 'db-gateway-1']);
    expect(body.riderPresence).toHaveLength(1);
    expect(body.riderPresence[0]).toMatchObject({ riderId: rider, requests: 2 });
    expect(body.riderPresence[0].wallMs).toBeGreaterThanOrEqual(0);
    expect(body.riderPresence[0].peakPerSecond).toBeGreaterThanOrEqual(1);
    const again = (await (await read(admin.token, [rider])).json()) as any;
    expect(again.riderPresence[0].requests).toBe(2);
    expect(again.riderPresence[0].startedAt).toBe(body.riderPresence[0].startedAt);
  });

  it('counts what a socket shard carries: the upgrade and the frames that woke it', async () => {
    const admin = await registerAdmin(api);
    const before = (await (await read(admin.token)).json()) as any;
    const total = (report: any) => report.socketShards.reduce((sum: number, shard: any) => sum + shard.requests, 0);
    const res = await api.fetch('/socket.io/?EIO=4&transport=websocket', { headers: { upgrade: 'websocket' } });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    ws.accept();
    ws.send('40/feed,{"token":"not-a-token"}');
    await new Promise((resolve) => setTimeout(resolve, 200));
    ws.close(1000);
    const after = (await (await read(admin.token)).json()) as any;
    expect(total(after) - total(before)).toBeGreaterThanOrEqual(2);
  });

  it('refuses a malformed or too long rider list with a 400 naming riders', async () => {
    const admin = await registerAdmin(api);
    const bad = await read(admin.token, ['not-an-id']);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('riders');
    const many = Array.from({ length: 101 }, () => new ObjectId().toHexString());
    const tooMany = await read(admin.token, many);
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(await tooMany.json())).toContain('at most 100');
  });
});

describe('POST /api/admin/socket-shards/{index}/reset', () => {
  it("closes the shard's sockets with 1012 so clients reconnect elsewhere", async () => {
    const admin = await registerAdmin(api);
    const res = await api.fetch('/socket.io/?EIO=4&transport=websocket', { headers: { upgrade: 'websocket' } });
    const ws = res.webSocket!;
    const closed = new Promise<number>((resolve) => ws.addEventListener('close', (event) => resolve(event.code)));
    ws.accept();
    // The upgrade went to one of the two shards at random: reset both, and find it closed by one.
    const answers = await Promise.all(
      [0, 1].map((index) =>
        api.fetch(`/api/admin/socket-shards/${index}/reset`, {
          method: 'POST',
          headers: { 'x-auth-token': admin.token },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const counts = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as { closed: number }).closed),
    );
    expect(counts[0]! + counts[1]!).toBeGreaterThanOrEqual(1);
    expect(await closed).toBe(1012);
  });

  it('answers 404 for a shard index beyond REALTIME_SHARDS, 400 for one that is not a number', async () => {
    const admin = await registerAdmin(api);
    const beyond = await api.fetch('/api/admin/socket-shards/2/reset', {
      method: 'POST',
      headers: { 'x-auth-token': admin.token },
    });
    expect(beyond.status).toBe(404);
    expect(await beyond.json()).toMatchObject({ error: 'No such socket shard.' });
    const word = await api.fetch('/api/admin/socket-shards/first/reset', {
      method: 'POST',
      headers: { 'x-auth-token': admin.token },
    });
    expect(word.status).toBe(400);
    expect(JSON.stringify(await word.json())).toContain('index');
  });
});
