import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOG_EVENTS } from '../../../worker/platform/ops/log-events';
import { logError, logEvent } from '../../../worker/platform/ops/log-line';
import { runInRequestScope } from '../../../worker/platform/ops/request-scope';

/** Every console call made while `run` runs, by console method, each line parsed. */
function written(run: () => void): { method: string; line: Record<string, unknown> }[] {
  const calls: { method: string; line: Record<string, unknown> }[] = [];
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((text: unknown) => {
      calls.push({ method, line: JSON.parse(String(text)) });
    });
  }
  run();
  return calls;
}

/** The one line `run` writes. */
function onlyLine(run: () => void): Record<string, unknown> {
  const calls = written(run);
  expect(calls).toHaveLength(1);
  return calls[0]!.line;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an event line', () => {
  it('is one JSON line of time, level, kind, event and exactly the fields passed', () => {
    const calls = written(() => logEvent('push.receipt.failed', { ticketId: 'ticket-1', code: 'MessageRateExceeded' }));
    expect(calls).toHaveLength(1);
    const [{ method, line }] = calls as [(typeof calls)[number]];
    expect(method).toBe('warn');
    expect(Object.keys(line)).toEqual(['time', 'level', 'kind', 'event', 'ticketId', 'code']);
    expect(line).toMatchObject({
      level: 'warn',
      kind: 'event',
      event: 'push.receipt.failed',
      ticketId: 'ticket-1',
      code: 'MessageRateExceeded',
    });
    expect(new Date(String(line.time)).toISOString()).toBe(line.time);
  });

  it("writes at its event's level, through the console method of that level", () => {
    const calls = written(() => {
      logEvent('accounts.email.changed-by-admin', { adminId: 'a'.repeat(24), userId: 'b'.repeat(24) });
      logEvent('ingestion.source.failed', { source: 'source-one', error: 'Error: down' });
    });
    expect(calls.map(({ method, line }) => [method, line.level])).toEqual([
      ['log', 'info'],
      ['error', 'error'],
    ]);
  });

  it('carries the request id of the request in scope, and none outside one', () => {
    const calls = written(() => {
      runInRequestScope('8f2b1c3d4e5f6a7b-LAX', () => logEvent('health.db-ping.failed', { error: 'Error: refused' }));
      logEvent('health.db-ping.failed', { error: 'Error: refused' });
    });
    expect(calls[0]!.line.requestId).toBe('8f2b1c3d4e5f6a7b-LAX');
    expect(calls[1]!.line).not.toHaveProperty('requestId');
  });

  it('never lets a field overwrite the fixed ones', () => {
    const fields = {
      ticketId: 'ticket-2',
      code: null,
      event: 'forged',
      kind: 'request',
      level: 'info',
      requestId: 'x',
    };
    const line = onlyLine(() => logEvent('push.receipt.failed', fields));
    expect(line).toMatchObject({ kind: 'event', event: 'push.receipt.failed', level: 'warn', code: null });
    expect(line).not.toHaveProperty('requestId');
  });

  it('takes addresses and token-shaped runs out of every text field', () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJfaWQiOiIxMjMifQ.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw';
    const line = onlyLine(() =>
      logEvent('ingestion.event.failed', {
        dedupeKey: 'mini ramp mayhem|2026-05-01|austin',
        code: 11000,
        error: `E11000 dup key: { email: "a.rider@example.com" } ${token} "ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]"`,
      }),
    );
    expect(JSON.stringify(line)).not.toContain('xxxxxxxxxxxxxxxxxxxxxx');
    expect(JSON.stringify(line)).not.toContain('a.rider@example.com');
    expect(JSON.stringify(line)).not.toContain(token);
    expect(line.dedupeKey).toBe('mini ramp mayhem|2026-05-01|austin');
  });
});

describe('an error line', () => {
  it('carries the request id in scope when its caller passes none', () => {
    const line = onlyLine(() =>
      runInRequestScope('req-1', () => logError('socket-shard: presence', new Error('gone'))),
    );
    expect(line).toMatchObject({ kind: 'error', where: 'socket-shard: presence', requestId: 'req-1' });
  });
});

describe('the event names', () => {
  it('are all listed under "Event lines" in docs/operations.md, and it lists no other', () => {
    const docs = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    const section = docs.split(/^#+ /m).find((part) => part.startsWith('Event lines')) ?? '';
    const listed = [...section.matchAll(/^\| `([a-z-]+(?:\.[a-z-]+)+)` \|/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual(Object.keys(LOG_EVENTS).sort());
  });

  it('are dotted lower-case names, each with its level and when it is written', () => {
    for (const [name, { level, when }] of Object.entries(LOG_EVENTS)) {
      expect(name).toMatch(/^[a-z-]+(\.[a-z-]+)+$/);
      expect(['info', 'warn', 'error']).toContain(level);
      expect(when.length).toBeGreaterThan(10);
    }
  });
});
