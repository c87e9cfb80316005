import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../../worker/platform/bounded-cache';

function cache(maxEntries: number, ttlMs = 1000) {
  const clock = { now: 0 };
  return { clock, cache: new BoundedCache<string>(maxEntries, ttlMs, () => clock.now) };
}

describe('BoundedCache', () => {
  it('never holds more than its bound, however many distinct keys arrive', () => {
    const { cache: peers } = cache(3);
    for (let i = 0; i < 1000; i++) peers.set(`key-${i}`, `value-${i}`);
    expect(peers.size).toBe(3);
    expect([peers.get('key-997'), peers.get('key-998'), peers.get('key-999')]).toEqual([
      'value-997',
      'value-998',
      'value-999',
    ]);
    expect(peers.get('key-996')).toBeUndefined();
  });

  it('evicts the least recently used: a read keeps a key', () => {
    const { cache: peers } = cache(2);
    peers.set('a', '1');
    peers.set('b', '2');
    expect(peers.get('a')).toBe('1');
    peers.set('c', '3');
    expect(peers.get('b')).toBeUndefined();
    expect(peers.get('a')).toBe('1');
    expect(peers.get('c')).toBe('3');
  });

  it('setting a key again replaces its value without taking another place', () => {
    const { cache: peers } = cache(2);
    peers.set('a', '1');
    peers.set('a', '2');
    peers.set('b', '3');
    expect(peers.size).toBe(2);
    expect(peers.get('a')).toBe('2');
  });

  it('answers a value for its time to live, then forgets it', () => {
    const { clock, cache: peers } = cache(2, 1000);
    peers.set('a', '1');
    clock.now = 999;
    expect(peers.get('a')).toBe('1');
    clock.now = 1000;
    expect(peers.get('a')).toBeUndefined();
    expect(peers.size).toBe(0);
  });

  it('forgets the keys a change made stale, and only those', () => {
    const { cache: peers } = cache(4);
    for (const key of ['chat-1:ana', 'chat-1:ben', 'chat-2:cal']) peers.set(key, key);
    peers.forgetWhere((key) => key.endsWith(':ben') || key.endsWith(':cal'));
    expect(peers.size).toBe(1);
    expect([peers.get('chat-1:ana'), peers.get('chat-1:ben'), peers.get('chat-2:cal')]).toEqual([
      'chat-1:ana',
      undefined,
      undefined,
    ]);
  });
});
