import { describe, expect, it } from 'vitest';
import { dateWindow, defaultWindow } from '../../../worker/events/catalog/date-window';

const window = (value: string, now: string) => {
  const found = dateWindow(value, new Date(now));
  return found && [found.from.toISOString(), found.to.toISOString()];
};

describe('the date windows of GET /api/events, on UTC calendar days', () => {
  it('weekend: the coming Saturday and Sunday from Monday to Friday, this one on Saturday and Sunday', () => {
    const weekend = ['2031-03-15T00:00:00.000Z', '2031-03-17T00:00:00.000Z'];
    // 2031-03-10 is a Monday.
    for (const day of ['10', '11', '12', '13', '14', '15', '16']) {
      expect(window('weekend', `2031-03-${day}T23:59:00Z`)).toEqual(weekend);
      expect(window('weekend', `2031-03-${day}T00:00:00Z`)).toEqual(weekend);
    }
    expect(window('weekend', '2031-03-17T00:00:00Z')).toEqual(['2031-03-22T00:00:00.000Z', '2031-03-24T00:00:00.000Z']);
  });

  it('today, week and month start at 00:00 UTC of the current day, whatever the hour', () => {
    expect(window('today', '2031-12-31T23:59:59Z')).toEqual(['2031-12-31T00:00:00.000Z', '2032-01-01T00:00:00.000Z']);
    expect(window('week', '2031-12-28T05:00:00Z')).toEqual(['2031-12-28T00:00:00.000Z', '2032-01-04T00:00:00.000Z']);
    expect(window('month', '2031-02-10T05:00:00Z')).toEqual(['2031-02-10T00:00:00.000Z', '2031-03-12T00:00:00.000Z']);
    const fallback = defaultWindow(new Date('2031-02-10T05:00:00Z'));
    expect([fallback.from.toISOString(), fallback.to.toISOString()]).toEqual(window('month', '2031-02-10T05:00:00Z'));
  });

  it('a day or an inclusive range of days, real calendar days only', () => {
    const now = '2031-01-01T12:00:00Z';
    expect(window('2032-02-29', now)).toEqual(['2032-02-29T00:00:00.000Z', '2032-03-01T00:00:00.000Z']);
    expect(window('2031-01-05..2031-01-05', now)).toEqual(['2031-01-05T00:00:00.000Z', '2031-01-06T00:00:00.000Z']);
    expect(window('2020-01-01..2031-01-05', now)).toEqual(['2020-01-01T00:00:00.000Z', '2031-01-06T00:00:00.000Z']);
    for (const bad of [
      '2031-02-29',
      '2031-13-01',
      '2031-1-5',
      '2031-01-06..2031-01-05',
      '2031-01-01..',
      'tomorrow',
      '2031-01-01..2031-01-02..2031-01-03',
      'Today',
      ' today',
    ]) {
      expect(window(bad, now), bad).toBeUndefined();
    }
  });
});
