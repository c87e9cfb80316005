import { describe, expect, it } from 'vitest';
import { SCHEDULES } from '../../../worker/schedules';
import toml from '../../../wrangler.toml?raw';

describe('cron schedules', () => {
  it('wrangler.toml triggers exactly the crons worker/schedules.ts has jobs for', () => {
    const line = /^\[triggers\]\s*\ncrons\s*=\s*(\[.*\])/m.exec(toml);
    expect(line).not.toBeNull();
    expect(JSON.parse(line![1]!)).toEqual(SCHEDULES.map((schedule) => schedule.cron));
  });

  it('gives every schedule a job name and a reason, one schedule per cron', () => {
    for (const schedule of SCHEDULES) expect(schedule.job && schedule.why).toBeTruthy();
    expect(new Set(SCHEDULES.map((schedule) => schedule.cron)).size).toBe(SCHEDULES.length);
  });
});
