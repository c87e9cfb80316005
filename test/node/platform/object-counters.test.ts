import { describe, expect, it } from 'vitest';
import { ObjectCounters } from '../../../durable-objects/object-counters';

/** A clock the test moves by hand: `at` ms on the monotonic clock, `epoch` ms on the wall clock. */
function fakeClocks() {
  const time = { at: 0, epoch: 1_000_000 };
  return {
    time,
    counters: new ObjectCounters(
      () => time.at,
      () => time.epoch,
    ),
  };
}

describe('ObjectCounters', () => {
  it('counts a request, its wall time, and the CPU before its first await', async () => {
    const { time, counters } = fakeClocks();
    let finish: () => void = () => undefined;
    const tracked = counters.track(() => {
      time.at += 3; // synchronous work before the handler waits
      return new Promise<string>((resolve) => {
        finish = () => resolve('done');
      });
    });
    time.at += 40; // the wait: not CPU
    finish();
    await expect(tracked).resolves.toBe('done');
    expect(counters.snapshot()).toEqual({ requests: 1, wallMs: 43, cpuMs: 3, peakPerSecond: 1, startedAt: 1_000_000 });
  });

  it('counts a synchronous handler in full as CPU', async () => {
    const { time, counters } = fakeClocks();
    await expect(
      counters.track(() => {
        time.at += 5;
        return 7;
      }),
    ).resolves.toBe(7);
    expect(counters.snapshot()).toMatchObject({ requests: 1, wallMs: 5, cpuMs: 5 });
  });

  it('passes failures through unchanged and still counts them', async () => {
    const { time, counters } = fakeClocks();
    const thrown = counters.track(() => {
      time.at += 2;
      throw new Error('sync failure');
    });
    await expect(thrown).rejects.toThrow('sync failure');
    const rejected = counters.track(async () => {
      throw new Error('async failure');
    });
    await expect(rejected).rejects.toThrow('async failure');
    expect(counters.snapshot()).toMatchObject({ requests: 2, wallMs: 2, cpuMs: 2 });
  });

  it('keeps the busiest one-second window', async () => {
    const { time, counters } = fakeClocks();
    for (let i = 0; i < 3; i++) await counters.track(() => undefined);
    time.epoch += 1000;
    for (let i = 0; i < 5; i++) await counters.track(() => undefined);
    time.epoch += 1000;
    await counters.track(() => undefined);
    expect(counters.snapshot()).toMatchObject({ requests: 9, peakPerSecond: 5 });
  });

  it('runs overlapping requests independently (a Durable Object interleaves them at awaits)', async () => {
    const { time, counters } = fakeClocks();
    const releases: (() => void)[] = [];
    const waiting = () => new Promise<void>((resolve) => releases.push(resolve));
    const first = counters.track(waiting);
    time.at += 10;
    const second = counters.track(waiting);
    time.at += 10;
    for (const release of releases) release();
    await Promise.all([first, second]);
    // 20 ms for the first, 10 for the second.
    expect(counters.snapshot()).toMatchObject({ requests: 2, wallMs: 30, cpuMs: 0 });
  });
});
