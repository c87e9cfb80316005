import { describe, expect, it } from 'vitest';
import { nearestRank, type RequestPoint, requestFigures } from '../../../worker/platform/ops/request-figures';

const NOW = Date.parse('2026-12-04T12:00:00Z');
const MINUTE = 60_000;

/** A point laid out as worker/platform/ops/metrics.ts writes it. */
const point = (route: string, status: number, durationMs: number, at = NOW - MINUTE, method = 'GET'): RequestPoint => ({
  at,
  blobs: [route, method, `${Math.floor(status / 100)}xx`],
  doubles: [durationMs, status, 0],
});

describe('nearestRank', () => {
  it('picks the smallest value with at least p of the values at or below it', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(nearestRank(values, 0.5)).toBe(10);
    expect(nearestRank(values, 0.95)).toBe(19);
    expect(nearestRank([7], 0.95)).toBe(7);
    expect(nearestRank([30, 10, 20], 0.5)).toBe(20);
  });
});

describe('requestFigures', () => {
  it('gives each method and route pattern its count, p50, p95 and 5xx and 4xx shares, busiest first', () => {
    const points = [
      ...Array.from({ length: 20 }, (_, i) => point('/api/feed', 200, i + 1)),
      point('/api/feed/:postId', 404, 5),
      point('/api/feed/:postId', 200, 9),
      point('/api/feed/:postId', 500, 50),
      point('/api/feed/:postId', 201, 3, NOW - MINUTE, 'POST'),
    ];
    const figures = requestFigures(points, NOW);
    expect(figures.routes).toEqual([
      {
        method: 'GET',
        route: '/api/feed',
        requests: 20,
        p50Ms: 10,
        p95Ms: 19,
        serverErrorShare: 0,
        clientErrorShare: 0,
      },
      {
        method: 'GET',
        route: '/api/feed/:postId',
        requests: 3,
        p50Ms: 9,
        p95Ms: 50,
        serverErrorShare: 1 / 3,
        clientErrorShare: 1 / 3,
      },
      {
        method: 'POST',
        route: '/api/feed/:postId',
        requests: 1,
        p50Ms: 3,
        p95Ms: 3,
        serverErrorShare: 0,
        clientErrorShare: 0,
      },
    ]);
  });

  it('leaves out points older than the hour and counts the rest per minute, oldest minute first', () => {
    const points = [
      point('/api/feed', 200, 1, NOW - 61 * MINUTE),
      point('/api/feed', 200, 1, NOW - 59 * MINUTE - 30_000),
      point('/api/feed', 500, 1, NOW - 30_000),
      point('/api/feed', 200, 1, NOW - 10_000),
    ];
    const figures = requestFigures(points, NOW);
    expect(figures.from).toBe('2026-12-04T11:00:00.000Z');
    expect(figures.to).toBe('2026-12-04T12:00:00.000Z');
    expect(figures.routes.map((r) => r.requests)).toEqual([3]);
    expect(figures.perMinute).toHaveLength(60);
    expect(figures.perMinute[0]).toEqual({ minute: '2026-12-04T11:00:00.000Z', requests: 1, serverErrors: 0 });
    expect(figures.perMinute[59]).toEqual({ minute: '2026-12-04T11:59:00.000Z', requests: 2, serverErrors: 1 });
    expect(figures.perMinute.slice(1, 59).every((m) => m.requests === 0)).toBe(true);
  });

  it('answers no routes and empty minutes for no traffic', () => {
    const figures = requestFigures([], NOW);
    expect(figures.routes).toEqual([]);
    expect(figures.perMinute.every((m) => m.requests === 0 && m.serverErrors === 0)).toBe(true);
  });

  it('counts no real-time figure written to the same dataset as a request', () => {
    const sessions = { at: NOW - MINUTE, blobs: ['realtime.sessions', '3'], doubles: [12] };
    const figures = requestFigures([sessions, point('/api/feed', 200, 5)], NOW);
    expect(figures.routes.map((r) => r.route)).toEqual(['/api/feed']);
    expect(figures.perMinute.reduce((sum, m) => sum + m.requests, 0)).toBe(1);
  });
});
