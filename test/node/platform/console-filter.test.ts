import { describe, expect, it } from 'vitest';
import { log } from '../../../worker/platform/ops/log-line';
import { keepConsoleLine } from '../../support/console-filter';
import { captureLogLines } from '../../support/log-lines';

// What the suite's output keeps of the Worker's lines: warnings and errors, never the info line per request or cron run.
describe("the suite's console filter", () => {
  it('drops info lines per request and cron run, and keeps everything else', async () => {
    const lines = await captureLogLines(async () => {
      const request = { kind: 'request', requestId: 'r', method: 'GET', route: '/api/health', durationMs: 1 } as const;
      const timing = { dbMs: 0, gatewayMs: 0, dbCalls: 0 };
      log({ ...request, status: 200, ...timing });
      log({ kind: 'cron', cron: '*/5 * * * *', job: 'reminders', outcome: 'ok', durationMs: 1 });
      log({ ...request, status: 503, ...timing });
      log({ kind: 'error', where: 'request', error: 'boom' });
    });
    expect(lines).toHaveLength(4);
    expect(lines.map(keepConsoleLine)).toEqual([false, false, undefined, undefined]);
    expect(keepConsoleLine('[voice] session 1: broke')).toBeUndefined();
    expect(keepConsoleLine('{"time": not json')).toBeUndefined();
  });
});
