import { describe, expect, it } from 'vitest';
import { parseClientEvent } from '../../../durable-objects/realtime-events';
import {
  ackFrame,
  connectErrorFrame,
  connectedFrame,
  eventFrame,
  frameBytes,
  isConnectFrame,
  NOOP_FRAME,
  openFrame,
  PacketType,
  PING_FRAME,
  readFrame,
} from '../../../durable-objects/socket-io-frames';

describe('Engine.IO v4 / Socket.IO v5 frames', () => {
  it('writes the frames socket.io-client reads', () => {
    expect(openFrame({ sid: 'abc', pingInterval: 25000, pingTimeout: 20000, maxPayload: 1000 })).toBe(
      '0{"sid":"abc","pingInterval":25000,"pingTimeout":20000,"maxPayload":1000,"upgrades":[]}',
    );
    expect([PING_FRAME, NOOP_FRAME]).toEqual(['2', '6']);
    expect(connectedFrame('/feed', 'x1')).toBe('40/feed,{"sid":"x1"}');
    expect(connectErrorFrame('/chat', 'Invalid namespace')).toBe('44/chat,{"message":"Invalid namespace"}');
    expect(eventFrame('/messages', 'typing:stop', { userId: 'u' })).toBe('42/messages,["typing:stop",{"userId":"u"}]');
    expect(ackFrame('/messages', 12, [{ ok: true }])).toBe('43/messages,12[{"ok":true}]');
  });

  it('reads connects with auth, events with ack ids, pings and closes', () => {
    expect(readFrame('40/feed,{"token":"t"}')).toEqual({
      kind: 'packet',
      packet: { type: PacketType.CONNECT, nsp: '/feed', data: { token: 't' } },
    });
    expect(readFrame('42/messages,5["typing:start",{"conversationId":"x"}]')).toEqual({
      kind: 'packet',
      packet: { type: PacketType.EVENT, nsp: '/messages', id: 5, data: ['typing:start', { conversationId: 'x' }] },
    });
    expect(readFrame('2')).toEqual({ kind: 'ping' });
    expect(readFrame('3')).toEqual({ kind: 'pong' });
    expect(readFrame('1')).toEqual({ kind: 'close' });
    expect(readFrame(new ArrayBuffer(3))).toEqual({ kind: 'ignored' });
  });

  it('tells a namespace connect from every other frame', () => {
    expect(isConnectFrame('40/feed,{"token":"t"}')).toBe(true);
    expect(isConnectFrame('40')).toBe(true);
    for (const other of ['41/feed,', '42/feed,["a"]', '4', '3', '2probe', new ArrayBuffer(2)]) {
      expect(isConnectFrame(other)).toBe(false);
    }
  });

  it('calls anything else malformed instead of throwing', () => {
    for (const frame of ['', '9', '4zz', '42/feed,["a"', '42/feed,{"not":"an array"}', '40/feed,"string auth"']) {
      expect(readFrame(frame).kind, frame).toBe('malformed');
    }
  });
});

describe('client events', () => {
  const id = 'a'.repeat(24);
  it('accepts the typing events on /messages with a conversation id', () => {
    expect(parseClientEvent('/messages', 'typing:start', { conversationId: id })).toEqual({
      ok: true,
      event: { namespace: '/messages', name: 'typing:start', payload: { conversationId: id } },
    });
  });

  it('names what is wrong with anything else', () => {
    expect(parseClientEvent('/feed', 'typing:start', { conversationId: id })).toEqual({
      ok: false,
      error: 'Unknown event on /feed: typing:start',
    });
    expect(parseClientEvent('/messages', 'toString', {})).toMatchObject({ ok: false });
    expect(parseClientEvent('/messages', 'typing:stop', undefined)).toEqual({
      ok: false,
      error: 'typing:stop: payload Invalid input: expected object, received undefined',
    });
  });

  it('counts a frame in UTF-8 bytes, as maxPayload does', () => {
    expect(frameBytes('42["post:new",{"t":"ok"}]', 1000)).toBe(25);
    // Past a third of the limit the string is encoded: 'é' is one UTF-16 unit and two bytes, '🛹' two units and four.
    expect(frameBytes('é'.repeat(400), 1000)).toBe(800);
    expect(frameBytes('🛹'.repeat(300), 1000)).toBe(1200);
    expect(frameBytes(new ArrayBuffer(12), 1000)).toBe(12);
  });
});
