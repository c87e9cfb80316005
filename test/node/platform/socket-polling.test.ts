import { describe, expect, it } from 'vitest';
import type { SocketAttachment } from '../../../durable-objects/socket-attachment';
import { PollingSession, UPGRADE_NOOP_MS } from '../../../durable-objects/socket-polling';
import { newSessionId, newSocketId, shardOfSession, shardOfSocket } from '../../../durable-objects/socket-session-id';

const attachment = (): SocketAttachment => ({ eid: 'e', connectedAt: 1, queryToken: null, namespaces: {} });

function session() {
  let closed = 0;
  const polling = new PollingSession(attachment(), () => closed++);
  return { polling, closed: () => closed };
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
