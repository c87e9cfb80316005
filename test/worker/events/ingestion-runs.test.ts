import { describe, expect, it, vi } from 'vitest';
import { describeAccessChecks } from '../../support/access-checks';
import { registerAdmin } from '../../support/accounts';
import { ingestionTestbed } from '../../support/ingestion';
import { LONG_TEST_MS } from '../../support/time-limits';

// The admin desk for ingestion (worker/events/ingestion/routes.ts): the run log and "run now".

const bed = ingestionTestbed('ingestion-runs');
const api = bed.api;

type Run = { _id: string; runId: string; source: string; trigger: string; status: string; inserted: number };

describe('admin ingestion runs', { timeout: LONG_TEST_MS }, () => {
  it('runs ingestion now and answers one record per source, each naming the admin trigger', async () => {
    const admin = await registerAdmin(api);
    const res = await api.fetch('/api/admin/ingestion-runs', {
      method: 'POST',
      headers: { 'x-auth-token': admin.token },
    });
    expect(res.status).toBe(201);
    const { runs } = await res.json<{ runs: Run[] }>();
    expect(runs.map(({ source, trigger, status }) => ({ source, trigger, status }))).toEqual([
      { source: 'source-one', trigger: 'admin', status: 'succeeded' },
      { source: 'source-two', trigger: 'admin', status: 'succeeded' },
    ]);
    expect(runs[0]!.runId).toBe(runs[1]!.runId);
    expect(runs[0]!.inserted).toBeGreaterThan(0);
  });

  it('answers a failed source as a failed record, not an error status', async () => {
    const other = ingestionTestbed('ingestion-runs-failed');
    await other.sources({ two: 'shape-changed' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const admin = await registerAdmin(other.api);
    const res = await other.api.fetch('/api/admin/ingestion-runs', {
      method: 'POST',
      headers: { 'x-auth-token': admin.token },
    });
    expect(res.status).toBe(201);
    const { runs } = await res.json<{ runs: (Run & { error: string })[] }>();
    expect(runs.map((run) => run.status)).toEqual(['succeeded', 'failed']);
    expect(runs[1]!.error).toContain('props.pageProps.events');
    vi.restoreAllMocks();
  });

  it('lists the run log newest first, a page at a time, cron runs and admin runs alike', async () => {
    const log = ingestionTestbed('ingestion-runs-log');
    await log.runCron();
    const admin = await registerAdmin(log.api);
    await log.api.fetch('/api/admin/ingestion-runs', { method: 'POST', headers: { 'x-auth-token': admin.token } });
    const seen: Run[] = [];
    let cursor: string | null = null;
    do {
      const res: Response = await log.api.fetch(
        `/api/admin/ingestion-runs?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        {
          headers: { 'x-auth-token': admin.token },
        },
      );
      expect(res.status).toBe(200);
      const page = await res.json<{ items: Run[]; nextCursor: string | null }>();
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.map((run) => `${run.trigger} ${run.source}`)).toEqual([
      'admin source-two',
      'admin source-one',
      'schedule source-two',
      'schedule source-one',
    ]);
  });
});

describeAccessChecks(api, [
  { method: 'GET', path: '/api/admin/ingestion-runs', check: 'admin' },
  { method: 'POST', path: '/api/admin/ingestion-runs', check: 'admin' },
]);
