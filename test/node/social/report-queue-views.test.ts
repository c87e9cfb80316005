import { ObjectId } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { queueFiguresView, queueItemView, readQueueRow } from '../../../worker/social/reports/queue/views';
import { ownReportView } from '../../../worker/social/reports/views';
import { readReport } from '../../../worker/social/stored-moderation';

const id = new ObjectId();
const hex = id.toHexString();
const now = new Date('2026-12-07T12:00:00Z');
const HOUR = 60 * 60 * 1000;

describe("the queue's rows as the aggregation groups them", () => {
  it('reads reasons as counts (an unknown one as other), reporters once each, and the model categories once', () => {
    const row = readQueueRow(
      {
        _id: { targetType: 'post', targetId: hex },
        reports: 4,
        riders: 3,
        reporterIds: [id, hex, null, new ObjectId('0000000000000000000000aa')],
        reasons: ['spam', 'spam', 'rude', 'hate'],
        notes: ['bot', null],
        categories: [['hate', 'violence'], ['hate'], null],
        fromModel: 1,
        firstAt: new Date(now.getTime() - 5 * HOUR),
        lastAt: now,
      },
      now,
    );
    expect(row).toMatchObject({
      targetType: 'post',
      targetId: id,
      reports: 4,
      riders: 3,
      reasons: { spam: 2, other: 1, hate: 1 },
      notes: ['bot'],
      categories: ['hate', 'violence'],
      fromModel: true,
    });
    expect(row?.reporterIds.map((r) => r.toHexString())).toEqual([hex, '0000000000000000000000aa']);
  });

  it('leaves out a row naming no target, and dates a row stored without dates as now', () => {
    expect(readQueueRow({ _id: { targetType: 'spot', targetId: hex } }, now)).toBeUndefined();
    expect(readQueueRow({ _id: null }, now)).toBeUndefined();
    const row = readQueueRow({ _id: { targetType: 'user', targetId: id } }, now);
    expect(row).toMatchObject({ reports: 0, riders: 0, reporterIds: [], fromModel: false, firstAt: now });
    const view = queueItemView(row!, new Map(), now);
    expect(view).toMatchObject({ content: null, authorId: null, withheld: null, ageHours: 0 });
  });

  it('answers the figures with no open item and nothing decided', () => {
    expect(queueFiguresView(undefined, undefined, now)).toEqual({
      openItems: 0,
      agedItems: 0,
      oldestOpenAt: null,
      oldestAgeHours: null,
      lastSevenDays: { decided: 0, withinDay: 0, share: null },
    });
    const figures = queueFiguresView(
      { items: 3, aged: 1, oldestAt: new Date(now.getTime() - 30 * HOUR) },
      { items: 4, within: 3 },
      now,
    );
    expect(figures).toMatchObject({ oldestAgeHours: 30, lastSevenDays: { decided: 4, withinDay: 3, share: 0.75 } });
  });
});

describe("a rider's own report", () => {
  it('reads as open, removed or dismissed, never naming the admin', () => {
    const base = { _id: id, targetType: 'post', targetId: id, reason: 'spam', createdAt: now };
    expect(ownReportView(readReport(base)!)).toMatchObject({ state: 'open' });
    const removed = ownReportView(
      readReport({ ...base, status: 'resolved', action: 'remove', resolvedBy: id, resolvedAt: now })!,
    );
    expect(removed).toEqual({
      _id: hex,
      targetType: 'post',
      targetId: hex,
      reason: 'spam',
      state: 'removed',
      createdAt: now.toISOString(),
      decidedAt: now.toISOString(),
    });
    expect(ownReportView(readReport({ ...base, status: 'resolved', action: 'dismiss' })!).state).toBe('dismissed');
  });

  it("reads the model's report with its categories and no reporter", () => {
    expect(
      readReport({ _id: id, targetType: 'post', targetId: id, source: 'model', categories: 'hate' }),
    ).toMatchObject({ source: 'model', categories: ['hate'] });
    expect(readReport({ _id: id, targetType: 'post', targetId: id, reporterId: id })).not.toHaveProperty('source');
  });
});
