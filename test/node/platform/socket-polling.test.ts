import { describe, expect, it } from 'vitest';
import type { SocketAttachment } from '../../../durable-objects/socket-attachment';
import { PollingSession, QUEUE_FULL, UPGRADE_NOOP_MS } from '../../../durable-objects/socket-polling';
import { newSessionId, newSocketId, shardOfSession, shardOfSocket } from '../../../durable-objects/socket-session-id';

const attachment = (): SocketAttachment => ({ eid: 'e', connectedAt: 1, queryToken: null, namespaces: {} });

function session(queue = { queuePackets: 100, queueBytes: 10_000 }) {
  let closed = 0;
  let overflowed = 0;
  const polling = new PollingSession(attachment(), {
    ...queue,
    onClosed: () => closed++,
    onOverflowed: () => overflowed++,
  });
  return { polling, closed: () => closed, overflowed: () => overflowed };
}

describe('a long-polling session', () => {
  it('answers a poll with every packet queued since the last one, separated by \\x1e', async () => {
    const { polling } = session();
    polling.send('2');
    polling.send('42/feed,["post:created",{}]');
    expect(await polling.poll()).toEqual({ body: '2\x1e42/feed,["post:created",{}]' });
  });

  it('holds an empty poll until a packet is sent, and refuses a second poll meanwhile', async () => {
    const { polling } = session();
    const held = polling.poll();
    expect(await polling.poll()).toEqual({ overlap: true });
    polling.send('2');
    expect(await held).toEqual({ body: '2' });
  });

  it('ends a held poll with the close packet when closed, and stores nothing after', async () => {
    const { polling, closed } = session();
    const held = polling.poll();
    polling.close();
    expect(await held).toEqual({ body: '1' });
    expect(closed()).toBe(1);
    expect(polling.store(attachment())).toBe(false);
    polling.send('2');
    expect(await polling.poll()).toEqual({ body: '1' });
  });

  it('ends polls with a noop once probed, and hands what was not polled to the WebSocket', async () => {
    const { polling, closed } = session();
    const held = polling.poll();
    polling.probed();
    expect(await held).toEqual({ body: '6' });
    const started = Date.now();
    expect(await polling.poll()).toEqual({ body: '6' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(UPGRADE_NOOP_MS - 5);
    const last = polling.poll();
    polling.send('42/feed,["post:removed",{}]');
    await last;
    polling.send('2');
    expect(polling.handOver()).toEqual(['2']);
    expect(closed()).toBe(1);
    expect(polling.isClosed).toBe(true);
  });

  it('closes itself once more packets are queued than its bound, freeing them, and says why', async () => {
    const { polling, closed, overflowed } = session({ queuePackets: 3, queueBytes: 10_000 });
    for (let i = 0; i < 3; i++) polling.send('3');
    expect(polling.isClosed).toBe(false);
    polling.send('3');
    expect(polling.isClosed).toBe(true);
    expect([closed(), overflowed()]).toEqual([1, 1]);
    expect(polling.closeReason).toBe(QUEUE_FULL);
    expect(await polling.poll()).toEqual({ body: '1' });
  });

  it('closes itself once its queued packets pass the bound in bytes', () => {
    const { polling, overflowed } = session({ queuePackets: 100, queueBytes: 1000 });
    polling.send('x'.repeat(500));
    polling.send('x'.repeat(498));
    expect(polling.isClosed).toBe(false);
    polling.send('x');
    expect(polling.isClosed).toBe(true);
    expect(overflowed()).toBe(1);
  });

  it('counts only what is queued: a poll empties the queue, and a held poll takes packets as they come', async () => {
    const { polling } = session({ queuePackets: 2, queueBytes: 10_000 });
    for (let round = 0; round < 5; round++) {
      polling.send('2');
      polling.send('2');
      expect(await polling.poll()).toEqual({ body: '2\x1e2' });
    }
    const held = polling.poll();
    polling.send('2');
    await held;
    polling.send('2');
    polling.send('2');
    expect(polling.isClosed).toBe(false);
  });

  it('offers one WebSocket upgrade: the first claim only, and none once closed', () => {
    const { polling } = session();
    expect(polling.claimUpgrade()).toBe(true);
    expect(polling.claimUpgrade()).toBe(false);
    const other = session().polling;
    other.close();
    expect(other.claimUpgrade()).toBe(false);
  });

  it('keeps its attachment as a copy the caller changes and stores', () => {
    const { polling } = session();
    const copy = polling.attachment();
    copy.namespaces['/feed'] = { sid: 's', userId: 'u' };
    expect(polling.attachment().namespaces).toEqual({});
    polling.store(copy);
    expect(polling.attachment().namespaces).toEqual({ '/feed': { sid: 's', userId: 'u' } });
  });
});

describe('session ids', () => {
  it('name the shard that issued them', () => {
    for (const shard of [0, 7, 127, 65_535]) {
      const sid = newSessionId(shard);
      expect(sid).toMatch(/^[0-9a-f]{32}$/);
      expect(shardOfSession(sid)).toBe(shard);
    }
    expect(shardOfSession('nope')).toBeNull();
    expect(shardOfSession('A'.repeat(32))).toBeNull();
  });

  it('and namespace socket ids name it too, apart from the session id and from the older random ones', () => {
    const sid = newSocketId(7);
    expect(sid).toMatch(/^s[0-9a-f]{32}$/);
    expect(shardOfSocket(sid)).toBe(7);
    expect(sid.slice(1)).not.toBe(newSessionId(7));
    expect(shardOfSocket(crypto.randomUUID().replaceAll('-', ''))).toBeNull();
    expect(shardOfSocket('s'.repeat(33))).toBeNull();
  });
});
