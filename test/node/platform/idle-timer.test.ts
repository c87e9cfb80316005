import { describe, expect, it } from 'vitest';
import { IdleTimer, type TimerHost } from '../../../durable-objects/idle-timer';

/** A clock moved by hand, with the timers it holds; `advance` fires those that come due, in order. */
function fakeHost() {
  let now = 0;
  let nextId = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const host: TimerHost = {
    now: () => now,
    set: (callback, ms) => {
      pending.set(++nextId, { at: now + ms, callback });
      return nextId;
    },
    clear: (handle) => {
      pending.delete(handle as number);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...pending].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].callback();
    }
    now = end;
  };
  return { host, advance, pendingCount: () => pending.size };
}

function timer() {
  const fake = fakeHost();
  const fired: number[] = [];
  const idle = new IdleTimer(fake.host, () => fired.push(fake.host.now()));
  return { ...fake, idle, fired };
}

describe('IdleTimer: Node socket idle timeouts with one pending timer', () => {
  it('fires once the socket has been idle for the timeout after arming', () => {
    const t = timer();
    t.idle.arm(100);
    t.advance(99);
    expect(t.fired).toEqual([]);
    t.advance(1);
    expect(t.fired).toEqual([100]);
  });

  it('counts the idle span again from each read or write', () => {
    const t = timer();
    t.idle.arm(100);
    t.advance(60);
    t.idle.touch();
    t.advance(60);
    t.idle.touch();
    t.advance(99);
    expect(t.fired).toEqual([]);
    t.advance(1);
    expect(t.fired).toEqual([220]);
  });

  it('keeps one runtime timer however often it is touched or re-armed with the same timeout', () => {
    const t = timer();
    t.idle.arm(100);
    for (let i = 0; i < 50; i++) {
      t.idle.touch();
      t.idle.arm(100);
      t.idle.arm(0);
      t.idle.arm(100);
    }
    expect(t.pendingCount()).toBe(1);
  });

  it('never fires after being disarmed, and arms again from scratch', () => {
    const t = timer();
    t.idle.arm(100);
    t.advance(50);
    t.idle.arm(0);
    t.idle.touch();
    t.advance(500);
    expect(t.fired).toEqual([]);
    t.idle.arm(100);
    t.advance(100);
    expect(t.fired).toEqual([650]);
  });

  it('a shorter timeout than the pending one comes due on time', () => {
    const t = timer();
    t.idle.arm(10_000);
    t.advance(10);
    t.idle.arm(50);
    t.advance(50);
    expect(t.fired).toEqual([60]);
  });

  it('after firing, the next activity starts another idle span, as Node refreshes its timer', () => {
    const t = timer();
    t.idle.arm(100);
    t.advance(100);
    t.advance(1000);
    expect(t.fired).toEqual([100]);
    t.idle.touch();
    t.advance(100);
    expect(t.fired).toEqual([100, 1200]);
  });

  it('stops for good with its socket', () => {
    const t = timer();
    t.idle.arm(100);
    t.idle.stop();
    t.idle.touch();
    t.advance(1000);
    expect(t.fired).toEqual([]);
    expect(t.pendingCount()).toBe(0);
  });
});
